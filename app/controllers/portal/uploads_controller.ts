import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import Publisher from '#models/publisher'
import uploadsConfig from '#config/uploads'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import { problemFor } from '#exceptions/problem_mapping'
import UploadService from '#services/uploads/upload_service'
import UploadListing from '#services/uploads/upload_listing'
import { LEAD_FIELDS } from '#services/uploads/upload_columns'
import { ownerNameOf } from '#services/catalogue/owner_directory'
import { listUploadsValidator } from '#validators/upload'
import {
  acceptUploadValidator,
  listUploadRowsValidator,
  uploadFieldsValidator,
} from '#validators/upload'
import UploadTransformer from '#transformers/upload_transformer'
import UploadRowTransformer from '#transformers/upload_row_transformer'
import UploadPublisherTransformer from '#transformers/upload_publisher_transformer'

/**
 * `/publisher/uploads` and `/operator/uploads`: the portal's face of
 * /v1/uploads. One set of pages for both (the `audience` prop says whose
 * portal); the same UploadPolicy, UploadService, validators and JSON as the
 * API, so another publisher's upload is not found here either. A person
 * sees its live and its sandbox uploads alike.
 */
@inject()
export default class UploadsController {
  constructor(
    protected uploads: UploadService,
    protected listing: UploadListing
  ) {}

  async index({ request, inertia, principal: person, bouncer }: HttpContext) {
    await bouncer.with('UploadPolicy').authorize('view')
    const environment = request.qs().environment === 'sandbox' ? 'sandbox' : 'live'
    const principal = person.in(environment)
    // A hand-edited address (a junk status or cursor) falls back to the first page of every upload.
    const [invalid, filters] = await listUploadsValidator.tryValidate(request.qs())
    const [page, publishers] = await Promise.all([
      this.listing.list(principal, invalid ? {} : filters),
      this.publishersOf(principal),
    ])
    const [uploaders, mayUpload] = await Promise.all([
      this.listing.uploaderNames(
        principal,
        page.data.map((upload) => upload.created_by)
      ),
      bouncer.with('UploadPolicy').allows('create'),
    ])
    // Publishers see no publisher column: only the operator gets the names.
    const names = new Map(
      principal.isOperator ? publishers.map((publisher) => [publisher.id, publisher.name]) : []
    )
    return inertia.render('uploads/index', {
      audience: audienceOf(principal),
      uploads: UploadTransformer.transform(page.data, {
        publishers: names,
        uploaders,
      }).useVariant('withNames'),
      next_cursor: page.nextCursor,
      may_upload: mayUpload,
      publishers: UploadPublisherTransformer.transform(publishers, (publisher) =>
        this.listing.openingFor(publisher)
      ),
      limits: { max_bytes: uploadsConfig.maxBytes, max_rows: uploadsConfig.maxRows },
    })
  }

  /**
   * The file, sent by the page as the body itself (`application/octet-stream`;
   * its name, the `mapping` and the operator's `publisher` in the query
   * string), streamed to UploadService as POST /v1/uploads streams its
   * multipart file: nothing is parked in the temp folder, and the API's
   * limits are the page's. A publisher that is not live yet uploads sandbox
   * leads, as its hosted forms take. The page sends it itself (not as an
   * Inertia visit), so the answer is JSON: the new upload's address, or the
   * problem with its message by field.
   */
  async store(ctx: HttpContext) {
    const { request, response, principal: person, bouncer } = ctx
    try {
      await bouncer.with('UploadPolicy').authorize('create')
      if (!request.is(['application/octet-stream'])) {
        throw new ApiProblem(
          415,
          'unsupported_media_type',
          'Unsupported media type',
          'Send the file itself as the body, as application/octet-stream.'
        )
      }
      const query = request.qs()
      const slug = person.isOperator && typeof query.publisher === 'string' ? query.publisher : null
      const publisher = person.isOperator
        ? slug && (await Publisher.findBy('slug', slug))
        : await Publisher.find(person.publisherId ?? '')
      const opening = publisher ? this.listing.openingFor(publisher) : null
      const principal = opening?.open ? person.in(opening.environment) : person
      const upload = await this.uploads.receive(principal, async (sink) => {
        const filename = typeof query.filename === 'string' ? query.filename : null
        await sink({ stream: request.request, filename })
        return uploadFieldsValidator.validate({
          publisher: slug ?? undefined,
          mapping: typeof query.mapping === 'string' ? query.mapping : undefined,
        })
      })
      return response
        .status(201)
        .json({ id: upload.id, url: `/${audienceOf(person)}/uploads/${upload.id}` })
    } catch (error) {
      const problem = problemFor(error, ctx)
      if (!problem) throw error
      const errors: Record<string, string> = {}
      for (const { field, message } of (problem.extensions.errors as FieldError[]) ?? []) {
        errors[field] ??= message
      }
      if (problem.extensions.field) errors[String(problem.extensions.field)] ??= problem.message
      return response.status(problem.status).json({
        message: problem.detail ?? problem.title,
        errors,
      })
    }
  }

  /** The live report: progress, counts, the rows (by outcome, a page at a time), the mapping, accepting. */
  async show({ params, request, inertia, principal: person, bouncer }: HttpContext) {
    const { upload, principal } = await this.listing.findForPerson(person, params.id)
    await bouncer.with('UploadPolicy').authorize('view')
    const [invalid, filters] = await listUploadRowsValidator.tryValidate(request.qs())
    const [rows, publisherName, uploaders, mayChange] = await Promise.all([
      this.uploads.rows(principal, upload.id, invalid ? {} : filters),
      ownerNameOf(principal, { publisherId: upload.publisher_id, buyerId: null }),
      this.listing.uploaderNames(principal, [upload.created_by]),
      bouncer.with('UploadPolicy').allows('accept'),
    ])
    return inertia.render('uploads/show', {
      audience: audienceOf(principal),
      upload: UploadTransformer.transform(upload, {
        publishers: new Map([[upload.publisher_id, publisherName]]),
        uploaders,
      }).useVariant('withNames'),
      rows: UploadRowTransformer.transform(rows.data),
      next_cursor: rows.nextCursor,
      may_change: mayChange,
      lead_fields: [...LEAD_FIELDS],
      limits: { max_bytes: uploadsConfig.maxBytes, max_rows: uploadsConfig.maxRows },
    })
  }

  /** The report as GET /v1/uploads/{id}/rows gives it with `Accept: text/csv`, as a download. */
  async report({ params, request, response, principal: person, bouncer }: HttpContext) {
    const { upload, principal } = await this.listing.findForPerson(person, params.id)
    await bouncer.with('UploadPolicy').authorize('view')
    const [invalid, filters] = await listUploadRowsValidator.tryValidate(request.qs())
    const outcome = invalid ? undefined : filters.outcome
    const report = await this.uploads.report(principal, upload.id, outcome)
    const name = `upload-${upload.id}${outcome ? `-${outcome}` : ''}.csv`
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="${name}"`)
    response.header('Cache-Control', 'no-store')
    return response.stream(report)
  }

  /** POST /v1/uploads/{id}/accept's validator and service method; the page follows it to the end. */
  async accept({ params, request, response, session, principal: person, bouncer }: HttpContext) {
    const { upload, principal } = await this.listing.findForPerson(person, params.id)
    await bouncer.with('UploadPolicy').authorize('accept')
    const input = await request.validateUsing(acceptUploadValidator)
    const accepting = await this.uploads.accept(
      principal,
      upload.id,
      input.include_flagged ?? false
    )
    const rows = accepting.to_accept - accepting.leads_created
    session.flash('notice', {
      severity: 'success',
      summary:
        rows > 0
          ? `Accepting ${rows} ${rows === 1 ? 'row' : 'rows'}: they become leads now`
          : 'Every row asked for is a lead already: nothing new to accept',
    })
    return response.redirect(`/${audienceOf(person)}/uploads/${upload.id}`)
  }

  /** Whom the page may upload for: the publisher's own; the operator any publisher. */
  private async publishersOf(principal: Principal) {
    if (principal.isOperator) return Publisher.query().orderBy('name')
    return Publisher.query().where('id', principal.publisherId ?? '')
  }
}

function audienceOf(principal: Principal) {
  return principal.isOperator ? ('operator' as const) : ('publisher' as const)
}
