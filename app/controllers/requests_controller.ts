import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Publisher from '#models/publisher'
import ApiProblem from '#exceptions/api_problem'
import LeadService from '#services/leads/lead_service'
import IntakeService from '#services/intake/intake_service'
import { lookupStatus } from '#services/leads/lead_presenter'
import { idempotencyOf, sendAnswerAfterSale } from '#controllers/concerns/intake_answer'
import { createRequestValidator } from '#validators/lead'
import { requestConsent } from '#services/intake/delivery_methods'

/** Requests from other sources (ad lead forms, spreadsheets, no-code HTTP modules): the same pipeline. */
@inject()
export default class RequestsController {
  constructor(
    protected intake: IntakeService,
    protected leads: LeadService
  ) {}

  async store(ctx: HttpContext) {
    await ctx.bouncer.with('LeadPolicy').authorize('create')
    const input = requestConsent(await ctx.request.validateUsing(createRequestValidator))
    const publisher = input.publisher ?? (await this.ownPublisherSlug(ctx))
    const answer = await this.intake.submit(
      ctx.principal,
      { ...input, publisher },
      {
        channel: 'request',
        consentMethod: 'api',
        idempotency: idempotencyOf(ctx),
      }
    )
    return sendAnswerAfterSale(ctx, answer)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const lead = await this.leads.findVisible(principal, params.id)
    return { id: lead.id, status: lookupStatus(lead.status) }
  }

  private async ownPublisherSlug({ principal }: HttpContext) {
    const publisher = principal.publisherId ? await Publisher.find(principal.publisherId) : null
    if (!publisher) {
      throw ApiProblem.unprocessable([
        {
          field: 'publisher',
          code: 'required',
          message: 'Name the publisher: operator keys deliver for any publisher.',
        },
      ])
    }
    return publisher.slug
  }
}
