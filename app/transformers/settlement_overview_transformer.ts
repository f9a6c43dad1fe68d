import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OverviewRow } from '#services/money/settlement_overview'

/** One publisher on the operator's settlement overview: its volume, disputes and money by currency. */
export default class SettlementOverviewTransformer extends BaseTransformer<OverviewRow> {
  toObject() {
    return this.pick(this.resource, [
      'publisher_id',
      'name',
      'slug',
      'label',
      'accepted_leads',
      'returned_leads',
      'open_disputes',
      'currencies',
    ])
  }
}
