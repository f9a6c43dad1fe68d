import { BaseTransformer } from '@adonisjs/core/transformers'
import type BuyerFundsService from '#services/money/buyer_funds_service'

type BuyerFunds = Awaited<ReturnType<BuyerFundsService['read']>> & {
  top_ups: Awaited<ReturnType<BuyerFundsService['topUps']>>
}

/**
 * A buyer's funds as the portal shows them: GET /v1/buyers/{id}/funds's figures (integer cents)
 * and its newest top-ups. `mode` null: no billing mode, the buyer is not limited by funds.
 */
export default class BuyerFundsTransformer extends BaseTransformer<BuyerFunds> {
  toObject() {
    return this.pick(this.resource, [
      'mode',
      'currency',
      'balance_cents',
      'credit_limit_cents',
      'reserved_cents',
      'available_cents',
      'top_ups',
    ])
  }
}
