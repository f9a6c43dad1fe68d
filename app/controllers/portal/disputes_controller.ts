import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import moneyConfig from '#config/money'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import { problemFor } from '#exceptions/problem_mapping'
import { ownerDirectory } from '#services/catalogue/owner_directory'
import { audienceOf } from '#services/leads/lead_service'
import DisputeReader, { type DisputeFilters } from '#services/money/dispute_reader'
import DisputeService from '#services/money/dispute_service'
import { ALLOWED_FILE_TYPES, acceptFiles } from '#services/money/dispute_files'
import { readDisputeAnswer } from '#services/money/dispute_answer_stream'
import { DISPUTE_STATUSES, OPEN_STATUSES } from '#services/money/dispute_rules'
import { returnWindowOf } from '#services/money/portal_sales'
import { decodeCursor } from '#services/sql/cursor_pagination'
import DisputeTransformer from '#transformers/dispute_transformer'
import DisputeDetailTransformer from '#transformers/dispute_detail_transformer'
import {
  listDisputesValidator,
  openDisputeValidator,
  respondToDisputeValidator,
} from '#validators/dispute'

/** What an answer may carry, as the page tells the publisher before it attaches anything. */
const LIMITS = {
  max_files: moneyConfig.disputes.maxFiles,
  max_file_bytes: moneyConfig.disputes.maxFileBytes,
  max_text_length: moneyConfig.disputes.maxTextLength,
  file_types: ALLOWED_FILE_TYPES,
}

/**
 * Disputes (returns) in the portals: a buyer opens one from its lead's page and may withdraw it,
 * the publisher answers with text and files, and all three read what concerns them on one page
 * (the `audience` prop says whose portal). The same validators, DisputePolicy, services and JSON
 * as /v1/disputes, so a publisher never reads the price or the buyer, a buyer never the payout
 * or the publisher, and another owner's dispute is not found here either. The operator decides
 * through its own controller (dispute_decisions_controller.ts).
 */
@inject()
export default class DisputesController {
  constructor(
    protected disputes: DisputeService,
    protected reader: DisputeReader
  ) {}

  /** The disputes of the caller, newest first, by status. */
  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('view')
    // A hand-edited address (a junk status or cursor) falls back to the first page of every dispute.
    const [invalid, query] = await listDisputesValidator.tryValidate(request.qs())
    const filters: DisputeFilters = invalid
      ? {}
      : {
          status: query.status,
          cursor: usableCursor(query.cursor),
          // Only the operator names a publisher or a buyer.
          ...(principal.isOperator
            ? { publisher_id: query.publisher_id, buyer_id: query.buyer_id }
            : {}),
        }
    const [page, directory] = await Promise.all([
      this.reader.list(principal, filters),
      ownerDirectory(principal),
    ])
    const audience = audienceOf(principal)
    return inertia.render('money/disputes/index', {
      audience,
      disputes: DisputeTransformer.transform(page.data, audience, directory).useVariant(
        'withParties'
      ),
      next_cursor: page.nextCursor,
      statuses: [...DISPUTE_STATUSES],
    })
  }

  /** One dispute: the delivery, the consent evidence, the thread, and what the caller may do now. */
  async show({ params, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('view')
    const detail = await this.reader.show(principal, params.id)
    const { dispute } = detail
    const audience = audienceOf(principal)
    const open = OPEN_STATUSES.includes(dispute.status)
    const [mayRespond, mayWithdraw, mayDecide, directory] = await Promise.all([
      bouncer.with('DisputePolicy').allows('respond'),
      bouncer.with('DisputePolicy').allows('withdraw'),
      bouncer.with('DisputePolicy').allows('decide'),
      principal.isOperator ? ownerDirectory(principal) : null,
    ])
    return inertia.render('money/disputes/show', {
      audience,
      dispute: DisputeDetailTransformer.transform(detail, audience),
      parties: directory
        ? {
            publisher_name:
              directory.publishers.find((owner) => owner.id === dispute.publisher_id)?.name ?? null,
            buyer_name:
              directory.buyers.find((owner) => owner.id === dispute.buyer_id)?.name ?? null,
          }
        : null,
      may_respond: mayRespond && open && new Date(dispute.respond_by) > new Date(),
      may_withdraw: mayWithdraw && open,
      may_decide: mayDecide && open,
      limits: LIMITS,
    })
  }

  /** POST /buyer/leads/{id}/disputes: the buyer returns a lead from its page. */
  async store({ params, request, response, session, principal, bouncer }: HttpContext) {
    // Another buyer's lead is not found before its form is read.
    await returnWindowOf(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('open')
    const input = await request.validateUsing(openDisputeValidator)
    const id = await this.disputes.open(principal, params.id, input)
    const { dispute } = await this.reader.show(principal, id)
    session.flash('notice', {
      severity: 'success',
      summary: dispute.decision
        ? `Return decided at once: ${dispute.decision}`
        : 'Return opened: the publisher has been told',
    })
    return response.redirect().toPath(`/buyer/leads/${params.id}`)
  }

  /**
   * POST /publisher/disputes/{id}/responses: the publisher's answer with its files. The page
   * sends it as one `application/octet-stream` body (`readDisputeAnswer`, in the money domain),
   * read as it streams in with the API's limits: a portal route takes no multipart body (api_request_middleware.ts),
   * and nothing is parked in the temp folder. The page sent it itself, so the answer is JSON:
   * where to go next, or the problem with its message by field.
   */
  async respond(ctx: HttpContext) {
    const { params, request, response, session, principal, bouncer } = ctx
    try {
      // Another publisher's dispute is not found before a byte of its files is read.
      await this.reader.findVisible(principal, params.id)
      await bouncer.with('DisputePolicy').authorize('respond')
      if (!request.is(['application/octet-stream'])) {
        throw new ApiProblem(
          415,
          'unsupported_media_type',
          'Unsupported media type',
          'Send the answer as the dispute page sends it (application/octet-stream).'
        )
      }
      const answer = await readDisputeAnswer(request.request)
      const { text } = await respondToDisputeValidator.validate({ text: answer.text })
      await this.disputes.respond(principal, params.id, { text, files: acceptFiles(answer.files) })
      session.flash('notice', { severity: 'success', summary: 'Answer sent' })
      return response.status(201).json({ url: disputePath(principal, params.id) })
    } catch (error) {
      const problem = problemFor(error, ctx)
      if (!problem) throw error
      // What is left of a refused body is read and dropped, so the page gets this answer.
      request.request.resume()
      const errors: Record<string, string> = {}
      for (const refusal of (problem.extensions.errors as FieldError[] | undefined) ?? []) {
        errors[refusal.field] ??= refusal.message
      }
      if (problem.extensions.field) errors[String(problem.extensions.field)] ??= problem.message
      if (problem.code === 'file_too_large') errors.attachments ??= problem.message
      return response
        .status(problem.status)
        .json({ message: problem.detail ?? problem.title, errors })
    }
  }

  /** POST /buyer/disputes/{id}/withdraw: the buyer takes its return back. */
  async withdraw({ params, response, session, principal, bouncer }: HttpContext) {
    await this.reader.findVisible(principal, params.id)
    await bouncer.with('DisputePolicy').authorize('withdraw')
    await this.disputes.withdraw(principal, params.id)
    session.flash('notice', { severity: 'success', summary: 'Return withdrawn' })
    return response.redirect().toPath(disputePath(principal, params.id))
  }
}

function disputePath(principal: Principal, id: string) {
  return `/${audienceOf(principal)}/disputes/${id}`
}

/** A cursor from the address, or none when it was edited into something no page gave. */
export function usableCursor(cursor: string | undefined) {
  if (cursor === undefined) return undefined
  try {
    decodeCursor(cursor)
    return cursor
  } catch {
    return undefined
  }
}
