import { BaseTransformer } from '@adonisjs/core/transformers'
import type { LeadView } from '#services/leads/lead_presenter'

/**
 * A lead as its reader may see it. The engine makes that view (leads/lead_presenter.ts: each
 * audience its own side of routing and review), since its CSV export, its plugins and the review
 * answer send the same JSON; this hands it to the API and the pages as it is.
 */
export default class LeadTransformer extends BaseTransformer<LeadView> {
  toObject() {
    return { ...this.resource }
  }
}
