import { BaseTransformer } from '@adonisjs/core/transformers'
import type Buyer from '#models/buyer'
import type { BuyerFigures } from '#services/catalogue/buyer_figures'
import { isoTime } from '#services/sql/timestamps'

const NO_FIGURES: BuyerFigures = { leads_today: 0, routing_rules: 0 }

export default class BuyerTransformer extends BaseTransformer<Buyer> {
  /** `figures`: what the operator's pages show beside each buyer (buyerFigures). */
  constructor(
    buyer: Buyer,
    protected figures?: ReadonlyMap<string, BuyerFigures>
  ) {
    super(buyer)
  }

  toObject() {
    const buyer = this.resource
    return {
      id: buyer.id,
      name: buyer.name,
      contact_email: buyer.contactEmail,
      status: buyer.status,
      return_window_hours: buyer.returnWindowHours,
      duplicate_window_days: buyer.duplicateWindowDays ?? null,
      created_at: isoTime(buyer.createdAt),
    }
  }

  /** A buyer a page names (the operator's view of a lead, its buyer). */
  toReference() {
    return { id: this.resource.id, name: this.resource.name }
  }

  /** The operator's list and page of buyers: the leads bought today and the routing rules. */
  withFigures() {
    return { ...this.toObject(), ...(this.figures?.get(this.resource.id) ?? NO_FIGURES) }
  }
}
