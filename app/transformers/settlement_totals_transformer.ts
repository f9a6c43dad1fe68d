import { BaseTransformer } from '@adonisjs/core/transformers'
import type { settlementTotals } from '#services/money/settlement_overview'

type SettlementTotals = Awaited<ReturnType<typeof settlementTotals>>

/** The operator's money at a glance: its margin, the disputes to settle, the payouts not yet paid. */
export default class SettlementTotalsTransformer extends BaseTransformer<SettlementTotals> {
  toObject() {
    return this.pick(this.resource, ['margin', 'disputes', 'unpaid_payouts'])
  }
}
