import { BaseTransformer } from '@adonisjs/core/transformers'
import type SettlementService from '#services/money/settlement_service'

type Settlement = Awaited<ReturnType<SettlementService['settlementOf']>>

/**
 * A publisher's money (GET /v1/settlement): pending, payable and paid in its main currency and
 * in each, its volume, open disputes and next payout. Never a price or a margin.
 */
export default class SettlementTransformer extends BaseTransformer<Settlement> {
  toObject() {
    return this.pick(this.resource, [
      'publisher_id',
      'currency',
      'pending_cents',
      'payable_cents',
      'paid_cents',
      'currencies',
      'accepted_leads',
      'returned_leads',
      'open_disputes',
      'next_payout',
    ])
  }
}
