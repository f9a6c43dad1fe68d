import type { LeadAudience } from '#services/leads/lead_presenter'
import type { DisputeDetail } from '#services/money/dispute_reader'
import { type DisputeRow, decidedByFor } from '#services/money/dispute_writes'
import { consentEvidenceToJson } from '#transformers/audit_transformer'

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null)

/**
 * The delivery as each party may see it: the buyer its price, the publisher its payout, the
 * operator both and the rule that sold the lead.
 */
function deliveryOf(dispute: DisputeRow, audience: LeadAudience) {
  return {
    delivered_at: iso(dispute.delivered_at),
    ...(audience === 'operator' ? { routing_rule_id: dispute.routing_rule_id } : {}),
    ...(audience === 'publisher' ? {} : { price_cents: dispute.price_cents }),
    ...(audience === 'buyer' ? {} : { payout_cents: dispute.payout_cents }),
    currency: dispute.currency.trim(),
  }
}

/**
 * A dispute in a list: its state, deadlines, delivery and decision. A publisher never reads the
 * buyer or the price, a buyer never the publisher or the payout; only the operator reads both ids.
 */
export function disputeSummaryToJson(dispute: DisputeRow, audience: LeadAudience) {
  return {
    id: dispute.id,
    lead_id: dispute.lead_id,
    ...(audience === 'operator'
      ? { publisher_id: dispute.publisher_id, buyer_id: dispute.buyer_id }
      : {}),
    reason: dispute.reason,
    status: dispute.status,
    environment: dispute.environment,
    opened_at: iso(dispute.opened_at),
    respond_by: iso(dispute.respond_by),
    decide_by: iso(dispute.decide_by),
    responded_at: iso(dispute.responded_at),
    withdrawn_at: iso(dispute.withdrawn_at),
    delivery: deliveryOf(dispute, audience),
    proof_url: `/v1/audit-logs/proof?lead_id=${dispute.lead_id}`,
    decision: dispute.decision
      ? {
          outcome: dispute.decision,
          decided_by: decidedByFor(dispute.decided_by, audience),
          decided_at: iso(dispute.decided_at),
        }
      : null,
  }
}

/** GET /v1/disputes/{id}: the summary with the lead's consent evidence, its trail's check and the thread. */
export function disputeToJson(detail: DisputeDetail, audience: LeadAudience) {
  return {
    ...disputeSummaryToJson(detail.dispute, audience),
    consent_evidence: detail.evidence && consentEvidenceToJson(detail.evidence),
    verification: detail.verification,
    thread: detail.thread.map((message) => ({
      author: message.author,
      text: message.text,
      files: message.files,
      created_at: iso(message.created_at),
    })),
  }
}
