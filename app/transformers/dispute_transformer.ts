import { BaseTransformer } from '@adonisjs/core/transformers'
import type { LeadAudience } from '#services/leads/lead_presenter'
import { type DisputeRow, decidedByFor } from '#services/money/dispute_writes'
import type { OwnerDirectory } from '#services/catalogue/owner_directory'
import { isoTime } from '#services/sql/timestamps'

/**
 * A dispute in a list: its state, deadlines, delivery and decision. A publisher never reads the
 * buyer or the price, a buyer never the publisher or the payout; only the operator reads both ids.
 */
export default class DisputeTransformer extends BaseTransformer<DisputeRow> {
  /** `parties`: the operator's owner directory, to name both parties in its lists. */
  constructor(
    dispute: DisputeRow,
    protected audience: LeadAudience,
    protected parties?: OwnerDirectory | null
  ) {
    super(dispute)
  }

  toObject() {
    const dispute = this.resource
    return {
      id: dispute.id,
      lead_id: dispute.lead_id,
      ...(this.audience === 'operator'
        ? { publisher_id: dispute.publisher_id, buyer_id: dispute.buyer_id }
        : {}),
      reason: dispute.reason,
      status: dispute.status,
      environment: dispute.environment,
      opened_at: isoTime(dispute.opened_at),
      respond_by: isoTime(dispute.respond_by),
      decide_by: isoTime(dispute.decide_by),
      responded_at: isoTime(dispute.responded_at),
      withdrawn_at: isoTime(dispute.withdrawn_at),
      delivery: this.delivery(),
      proof_url: `/v1/audit-logs/proof?lead_id=${dispute.lead_id}`,
      decision: dispute.decision
        ? {
            outcome: dispute.decision,
            decided_by: decidedByFor(dispute.decided_by, this.audience),
            decided_at: isoTime(dispute.decided_at),
          }
        : null,
    }
  }

  /** The operator's lists name both parties; nobody else is given the names. */
  withParties() {
    const { parties, resource: dispute } = this
    return {
      ...this.toObject(),
      ...(parties
        ? {
            publisher_name: nameOf(parties.publishers, dispute.publisher_id),
            buyer_name: nameOf(parties.buyers, dispute.buyer_id),
          }
        : {}),
    }
  }

  /**
   * The delivery as each party may see it: the buyer its price, the publisher its payout, the
   * operator both and the rule that sold the lead.
   */
  protected delivery() {
    const { audience, resource: dispute } = this
    return {
      delivered_at: isoTime(dispute.delivered_at),
      ...(audience === 'operator' ? { routing_rule_id: dispute.routing_rule_id } : {}),
      ...(audience === 'publisher' ? {} : { price_cents: dispute.price_cents }),
      ...(audience === 'buyer' ? {} : { payout_cents: dispute.payout_cents }),
      currency: dispute.currency.trim(),
    }
  }
}

function nameOf(owners: OwnerDirectory['publishers'], id: string) {
  return owners.find((owner) => owner.id === id)?.name ?? null
}
