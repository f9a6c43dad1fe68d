import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PayoutService from '#services/money/payout_service'
import PayoutTransformer from '#transformers/payout_transformer'
import {
  listPayoutsValidator,
  markPayoutFailedValidator,
  markPayoutPaidValidator,
} from '#validators/payout'

/** Payouts: a publisher's own, the operator's all; the operator marks them paid or failed. */
@inject()
export default class PayoutsController {
  constructor(protected payouts: PayoutService) {}

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewList')
    const filters = await listPayoutsValidator.validate(request.qs())
    const page = await this.payouts.list(principal, filters)
    return serializePage(PayoutTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('view')
    const { payout, lines } = await this.payouts.find(principal, params.id)
    return serialize(PayoutTransformer.transform(payout, lines))
  }

  async markPaid({ params, request, principal, bouncer, serialize }: HttpContext) {
    await this.lookUpFirst(principal, params.id)
    await bouncer.with('PayoutPolicy').authorize('markPaid')
    const { reference } = await request.validateUsing(markPayoutPaidValidator)
    const { payout, lines } = await this.payouts.markPaid(principal, params.id, reference)
    return serialize(PayoutTransformer.transform(payout, lines))
  }

  async markFailed({ params, request, principal, bouncer, serialize }: HttpContext) {
    await this.lookUpFirst(principal, params.id)
    await bouncer.with('PayoutPolicy').authorize('markFailed')
    const { reason } = await request.validateUsing(markPayoutFailedValidator)
    const { payout, lines } = await this.payouts.markFailed(principal, params.id, reason)
    return serialize(PayoutTransformer.transform(payout, lines))
  }

  /**
   * A publisher is told a payout it cannot see does not exist (404, as `show` answers) before the
   * policy refuses it the step (403, its own payout): another publisher's payout stays out of
   * sight. A buyer sees no payout at all, so the policy alone refuses it, as it does `show`.
   */
  private async lookUpFirst(principal: HttpContext['principal'], id: string) {
    if (principal.kind === 'publisher') await this.payouts.find(principal, id)
  }
}
