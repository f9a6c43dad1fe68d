import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LeadService, { assertFiltersAllowed } from '#services/leads/lead_service'
import IntakeService from '#services/intake/intake_service'
import LeadReviewService from '#services/leads/lead_review_service'
import { leadsCsv } from '#services/leads/lead_csv'
import { idempotencyOf, sendAnswerAfterSale } from '#controllers/concerns/intake_answer'
import { createLeadValidator, listLeadsValidator, reviewLeadValidator } from '#validators/lead'
import LeadTransformer from '#transformers/lead_transformer'

@inject()
export default class LeadsController {
  constructor(
    protected intake: IntakeService,
    protected leads: LeadService,
    protected reviews: LeadReviewService
  ) {}

  async store(ctx: HttpContext) {
    await ctx.bouncer.with('LeadPolicy').authorize('create')
    const input = await ctx.request.validateUsing(createLeadValidator)
    const answer = await this.intake.submit(ctx.principal, input, {
      channel: 'api',
      consentMethod: 'api',
      idempotency: idempotencyOf(ctx),
    })
    return sendAnswerAfterSale(ctx, answer)
  }

  /** The visible leads a page at a time, or with `?format=csv` all of them as a streamed CSV. */
  async index({ request, response, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { format, ...filters } = await listLeadsValidator.validate(request.qs())
    if (format !== 'csv') {
      const page = await this.leads.list(principal, filters)
      return serializePage(LeadTransformer.transform(page.data), page.next_cursor)
    }
    // Refused filters answer before the download starts.
    assertFiltersAllowed(principal, filters)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', 'attachment; filename="leads.csv"')
    response.header('Cache-Control', 'no-store')
    return response.stream(leadsCsv(this.leads, principal, filters))
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    return serialize(LeadTransformer.transform(await this.leads.findVisible(principal, params.id)))
  }

  async review({ params, request, principal, bouncer, serialize }: HttpContext) {
    const lead = await this.reviews.findVisible(principal, params.id)
    await bouncer.with('LeadPolicy').authorize('review')
    const input = await request.validateUsing(reviewLeadValidator)
    return serialize(LeadTransformer.transform(await this.reviews.review(principal, lead, input)))
  }
}
