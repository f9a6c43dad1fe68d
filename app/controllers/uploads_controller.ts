import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import UploadService, { type FileSink } from '#services/uploads/upload_service'
import UploadListing from '#services/uploads/upload_listing'
import UploadTransformer from '#transformers/upload_transformer'
import UploadRowTransformer from '#transformers/upload_row_transformer'
import {
  acceptUploadValidator,
  listUploadRowsValidator,
  listUploadsValidator,
  uploadFieldsValidator,
} from '#validators/upload'

/**
 * CSV and JSON Lines uploads. The file is read while the request streams
 * in (the bodyparser leaves `/v1/uploads` to us: config/bodyparser.ts), its
 * rows stored, and validation queued; acceptance is asked for separately.
 */
@inject()
export default class UploadsController {
  constructor(
    protected uploads: UploadService,
    protected listing: UploadListing
  ) {}

  /** Newest first: a publisher's own, the operator's every publisher's (or `publisher_id`'s). */
  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('UploadPolicy').authorize('view')
    const filters = await listUploadsValidator.validate(request.qs())
    const page = await this.listing.list(principal, filters)
    return serializePage(UploadTransformer.transform(page.data), page.nextCursor)
  }

  async store(ctx: HttpContext) {
    await ctx.bouncer.with('UploadPolicy').authorize('create')
    if (!ctx.request.is(['multipart/form-data'])) {
      throw new ApiProblem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        'Send the file as multipart/form-data, in the field "file" (and "mapping", "publisher" beside it).'
      )
    }
    const upload = await this.uploads.receive(ctx.principal, (sink) => readBody(ctx, sink))
    return ctx.response.status(202).send(await ctx.serialize(UploadTransformer.transform(upload)))
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('UploadPolicy').authorize('view')
    return serialize(UploadTransformer.transform(await this.uploads.find(principal, params.id)))
  }

  /** The rows, a page at a time; with `Accept: text/csv`, the whole report as a download. */
  async rows({ params, request, response, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('UploadPolicy').authorize('view')
    const filters = await listUploadRowsValidator.validate(request.qs())
    if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
      const report = await this.uploads.report(principal, params.id, filters.outcome)
      response.header('Content-Type', 'text/csv; charset=utf-8')
      response.header('Content-Disposition', `attachment; filename="upload-${params.id}.csv"`)
      response.header('Cache-Control', 'no-store')
      return response.stream(report)
    }
    const page = await this.uploads.rows(principal, params.id, filters)
    return serializePage(UploadRowTransformer.transform(page.data), page.nextCursor)
  }

  async accept({ params, request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('UploadPolicy').authorize('accept')
    const input = await request.validateUsing(acceptUploadValidator)
    const upload = await this.uploads.accept(principal, params.id, input.include_flagged ?? false)
    return response.status(202).send(await serialize(UploadTransformer.transform(upload)))
  }
}

/**
 * Streams the multipart body: the file part goes to the service as it
 * arrives; the other fields are read once the body is complete. A refusal
 * while the file streams stops reading and is what the caller hears.
 */
async function readBody(ctx: HttpContext, sink: FileSink) {
  const multipart = ctx.request.multipart
  let failure: unknown
  multipart.onFile('file', {}, async (part) => {
    try {
      await sink({ stream: part, filename: part.filename ?? null })
    } catch (error) {
      failure ??= error
      multipart.abort(error)
    }
  })
  try {
    await multipart.process()
  } catch (error) {
    throw failure ?? error
  }
  if (failure) throw failure
  return uploadFieldsValidator.validate(ctx.request.all())
}
