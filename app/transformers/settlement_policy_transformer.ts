import { BaseTransformer } from '@adonisjs/core/transformers'
import type { SettlementPolicy } from '#services/money/settlement_policy_service'

/** A label's settlement rules (GET /v1/labels/{id}/settlement-policy). */
export default class SettlementPolicyTransformer extends BaseTransformer<SettlementPolicy> {
  toObject() {
    return this.pick(this.resource, [
      'payout_schedule',
      'minimum_payout_cents',
      'response_hours',
      'decision_hours',
      'default_outcome',
    ])
  }
}
