import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LeadService from '#services/leads/lead_service'
import LeadReviewService from '#services/leads/lead_review_service'
import { listLeadsValidator, reviewLeadValidator } from '#validators/lead'
import LeadTransformer from '#transformers/lead_transformer'

/**
 * The operator's review queue: flagged leads, oldest first, each approved (on
 * to routing) or rejected with a reason, through the service behind
 * POST /v1/leads/{id}/review.
 */
@inject()
export default class LeadReviewsController {
  constructor(
    protected leads: LeadService,
    protected reviews: LeadReviewService
  ) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { limit, cursor, environment } = await request.validateUsing(listLeadsValidator)
    const page = await this.leads.list(principal, {
      limit,
      cursor,
      environment,
      status: 'flagged',
      order: 'asc',
    })
    return inertia.render('operator/review', {
      leads: LeadTransformer.transform(page.data),
      next_cursor: page.next_cursor,
      may_review: await bouncer.with('LeadPolicy').allows('review'),
    })
  }

  /** Back to where the reviewer was (the queue or the lead's page), which now shows the outcome. */
  async store({ params, request, response, session, principal, bouncer }: HttpContext) {
    const lead = await this.reviews.findVisible(principal, params.id)
    await bouncer.with('LeadPolicy').authorize('review')
    const input = await request.validateUsing(reviewLeadValidator)
    await this.reviews.review(principal, lead, input)
    session.flash('notice', {
      severity: 'success',
      summary:
        input.decision === 'approve'
          ? 'Lead approved: it goes on to routing'
          : 'Lead rejected; the publisher sees your reason',
    })
    return response.redirect().back()
  }
}
