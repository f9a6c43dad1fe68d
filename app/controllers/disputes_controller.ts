import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import moneyConfig from '#config/money'
import LeadService, { audienceOf } from '#services/leads/lead_service'
import DisputeService from '#services/money/dispute_service'
import DisputeReader from '#services/money/dispute_reader'
import {
  type ReceivedFile,
  acceptFiles,
  fileTooLarge,
  tooManyFiles,
} from '#services/money/dispute_files'
import ApiProblem from '#exceptions/api_problem'
import DisputeTransformer from '#transformers/dispute_transformer'
import DisputeDetailTransformer from '#transformers/dispute_detail_transformer'
import {
  decideDisputeValidator,
  listDisputesValidator,
  openDisputeValidator,
  respondToDisputeValidator,
  withdrawDisputeValidator,
} from '#validators/dispute'

/**
 * Disputes (returns): the buyer opens and withdraws, the publisher answers (JSON, or multipart
 * with attachments), the operator decides; each answer is the dispute as the caller may see it.
 * A step looks the lead or dispute up before asking the policy, so what is out of the caller's
 * sight answers 404 and only a visible one 403.
 */
@inject()
export default class DisputesController {
  constructor(
    protected disputes: DisputeService,
    protected reader: DisputeReader,
    protected leads: LeadService
  ) {}

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('view')
    const filters = await listDisputesValidator.validate(request.qs())
    const page = await this.reader.list(principal, filters)
    const disputes = DisputeTransformer.transform(page.data, audienceOf(principal))
    return serializePage(disputes, page.nextCursor)
  }

  async show(ctx: HttpContext) {
    await ctx.bouncer.with('DisputePolicy').authorize('view')
    return this.present(ctx, ctx.params.id)
  }

  /** POST /v1/leads/{id}/disputes */
  async store(ctx: HttpContext) {
    const { params, request, response, principal, bouncer } = ctx
    await this.leads.visiblePublisherId(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('open')
    const input = await request.validateUsing(openDisputeValidator)
    const id = await this.disputes.open(principal, params.id, input)
    return response.status(201).send(await this.present(ctx, id))
  }

  async respond(ctx: HttpContext) {
    const { params, principal, bouncer, request, response } = ctx
    // Another owner's dispute answers 404 before a byte of its files is read.
    await this.reader.findVisible(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('respond')
    const { text, files } = request.is(['multipart/form-data'])
      ? await readMultipart(ctx)
      : { ...(await request.validateUsing(respondToDisputeValidator)), files: [] }
    await this.disputes.respond(principal, params.id, { text, files: acceptFiles(files) })
    return response.status(201).send(await this.present(ctx, params.id))
  }

  async decide(ctx: HttpContext) {
    const { params, request, principal, bouncer } = ctx
    await this.reader.findVisible(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('decide')
    const input = await request.validateUsing(decideDisputeValidator)
    await this.disputes.decide(principal, params.id, input)
    return this.present(ctx, params.id)
  }

  async withdraw(ctx: HttpContext) {
    const { params, request, principal, bouncer } = ctx
    await this.reader.findVisible(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('withdraw')
    await request.validateUsing(withdrawDisputeValidator)
    await this.disputes.withdraw(principal, params.id)
    return this.present(ctx, params.id)
  }

  private async present({ principal, serialize }: HttpContext, id: string) {
    const detail = await this.reader.show(principal, id)
    return serialize(DisputeDetailTransformer.transform(detail, audienceOf(principal)))
  }
}

/**
 * Reads a multipart answer as it streams in (the bodyparser leaves this route to us:
 * config/bodyparser.ts): each file of `attachments` is held in memory up to the size limit and
 * refused (413) the moment it passes it; one file too many is 422. The text field is validated
 * once the body is complete.
 */
async function readMultipart(ctx: HttpContext) {
  const multipart = ctx.request.multipart
  const { maxFiles, maxFileBytes } = moneyConfig.disputes
  const files: ReceivedFile[] = []
  let failure: unknown
  const refuse = (error: unknown) => {
    failure ??= error
    multipart.abort(error)
  }
  multipart.onFile('*', {}, async (part) => {
    if (part.name.replace(/\[\d*\]$/, '') !== 'attachments') {
      part.resume()
      return refuse(
        ApiProblem.unprocessable([
          {
            field: part.name,
            code: 'unknown_field',
            message: 'Attach files in the field "attachments".',
          },
        ])
      )
    }
    if (files.length >= maxFiles) {
      part.resume()
      return refuse(tooManyFiles())
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of part) {
      size += chunk.length
      if (size > maxFileBytes) {
        part.resume()
        return refuse(fileTooLarge(part.filename ?? null))
      }
      chunks.push(chunk)
    }
    files.push({
      filename: part.filename ?? null,
      declaredType: part.headers['content-type'] ?? null,
      content: Buffer.concat(chunks),
    })
  })
  try {
    await multipart.process()
  } catch (error) {
    throw failure ?? error
  }
  if (failure) throw failure
  // The files are read above; the validator sees the other fields (and refuses unknown ones).
  const fields = { ...ctx.request.all() }
  delete fields.attachments
  const { text } = await respondToDisputeValidator.validate(fields)
  return { text, files }
}
