import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import DisputeReader from '#services/money/dispute_reader'
import DisputeService from '#services/money/dispute_service'
import { decideDisputeValidator } from '#validators/dispute'
import { formatCents } from '#controllers/portal/money_operator_controller'

/**
 * The operator decides a dispute from its page: POST /v1/disputes/{id}/decision's validator,
 * DisputePolicy and service method. Upheld settles itself (the buyer credited, the publisher's
 * payout taken back, the lead returned); rejected leaves the sale to its return window.
 */
@inject()
export default class DisputeDecisionsController {
  constructor(
    protected disputes: DisputeService,
    protected reader: DisputeReader
  ) {}

  async decide({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('decide')
    // Another owner's dispute, or none, answers 404 before the form is read.
    const dispute = await this.reader.findVisible(principal, params.id)
    const input = await request.validateUsing(decideDisputeValidator)
    await this.disputes.decide(principal, dispute.id, input)
    const payout = formatCents(dispute.payout_cents, dispute.currency.trim())
    session.flash('notice', {
      severity: 'success',
      summary:
        input.outcome === 'upheld'
          ? `Dispute upheld: the lead is returned, the buyer credited and the publisher's ${payout} taken back`
          : 'Dispute rejected: the sale stands and becomes final when its return window closes',
    })
    return response.redirect().toPath(`/operator/disputes/${dispute.id}`)
  }
}
