import type { AttributeValue, Evaluation } from '#services/quality/types'

/** One reason a lead carries: a quality rule's, or the reviewer's rejection (no message then). */
export type LeadReason = { code: string; field?: string; action: string; message: string | null }

/** The lead's JSON columns, as intake (and a review) wrote them. */
type LeadDocuments = {
  contact: Record<string, string | null>
  provenance: Record<string, string | null>
  consent: Record<string, string | boolean | null>
  attributes: Record<string, AttributeValue | null> | null
  quality_check: Partial<Evaluation['quality_check']>
  reasons: LeadReason[]
}

export type LeadRow = LeadDocuments & {
  id: string
  publisher_id: string
  environment: string
  channel: string
  status: string
  /** The operator's review of a flagged lead; null until there was one. */
  review?: StoredReview | null
  created_at: Date
}

/** What the lead row keeps of a review (lead_review_service.ts). */
export type StoredReview = {
  decision: 'approve' | 'reject'
  reason: string | null
  reviewer: string
  reviewed_at: string
}

/** What routing decided, from the lead's `lead_facts` row. */
export type RoutingFacts = {
  buyer_id: string | null
  routing_rule_id: string | null
  price_cents: number | null
  payout_cents: number | null
  currency: string | null
  unsold_reason: string | null
  matched_at: Date | string | null
  routed_at: Date | string | null
}

/** Who reads the lead: routing and money show differently to each. */
export type LeadAudience = 'operator' | 'publisher' | 'buyer'

export type LeadContext = {
  publisherSlug: string
  labelSlug: string | null
  audience?: LeadAudience
  routing?: RoutingFacts
}

/** The statuses a list of leads filters on (`?status=`), in a lead's order of life. */
export const LISTED_STATUSES = [
  'received',
  'accepted',
  'flagged',
  'rejected',
  'matched',
  'delivered',
  'paid_out',
  'returned',
] as const

const LOOKUP_STATUS: Record<string, string> = {
  received: 'received',
  accepted: 'accepted',
  flagged: 'flagged',
  rejected: 'rejected',
  matched: 'matched',
  delivered: 'matched',
  paid_out: 'paid_out',
  returned: 'returned',
}

/**
 * The operator's view of what routing decided: the sale (routing writes its buyer, rule, price,
 * payout, currency and moment together), or why the lead is unsold.
 */
type RoutingDecision =
  | {
      buyer_id: string
      rule_id: string
      price_cents: number
      payout_cents: number
      currency: string
      matched_at: string
    }
  | { unsold_reason: string; routed_at: string | null }
  | null

/**
 * The lead resource of the OpenAPI document (`Lead`) as one reader sees it: a buyer gets no
 * review and no publisher, and each audience its own side of routing (absent when the lead was
 * read without its routing facts).
 */
export type LeadView = LeadDocuments & {
  id: string
  publisher: string | null
  status: string
  environment: string
  channel: string
  provenance: Record<string, string | null> & { label: string | null }
  created_at: string
  review?: {
    decision: StoredReview['decision']
    reason: string | null
    reviewed_at: string
    reviewer?: string
  } | null
  buyer_id?: string | null
  price_cents?: number | null
  payout_cents?: number | null
  currency?: string | null
  unsold_reason?: string | null
  routing?: RoutingDecision
}

/** The lead resource of the OpenAPI document (`Lead`); provenance carries the label assigned from the publisher. */
export function leadToJson(row: LeadRow, context: LeadContext): LeadView {
  const lead = {
    id: row.id,
    publisher: context.publisherSlug,
    status: row.status,
    environment: row.environment,
    channel: row.channel,
    contact: row.contact,
    provenance: { ...row.provenance, label: context.labelSlug },
    consent: row.consent,
    attributes: row.attributes,
    quality_check: row.quality_check,
    reasons: row.reasons,
    created_at: new Date(row.created_at).toISOString(),
  }
  const reviewed =
    context.audience === 'buyer' ? lead : { ...lead, review: reviewView(row, context) }
  if (!context.audience || !context.routing) return reviewed
  return { ...reviewed, ...routingView(context.audience, context.routing) }
}

/**
 * The publisher reads the decision and the reason about its own lead; which
 * operator user decided is the operator's to know. Buyers get no review:
 * what they receive was accepted.
 */
function reviewView(row: LeadRow, context: LeadContext) {
  if (!row.review) return null
  const { decision, reason, reviewer, reviewed_at: reviewedAt } = row.review
  return {
    decision,
    reason,
    reviewed_at: reviewedAt,
    ...(context.audience === 'publisher' ? {} : { reviewer }),
  }
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null)

/**
 * A buyer sees its price but neither the publisher behind the label nor the
 * payout; a publisher sees its payout but neither buyer nor price; the
 * operator sees the whole decision, or why the lead is unsold.
 */
function routingView(audience: LeadAudience, facts: RoutingFacts) {
  if (audience === 'buyer') {
    return { publisher: null, price_cents: facts.price_cents, currency: facts.currency }
  }
  if (audience === 'publisher') {
    return { payout_cents: facts.payout_cents, currency: facts.currency }
  }
  const routing = facts.buyer_id
    ? {
        buyer_id: facts.buyer_id,
        rule_id: facts.routing_rule_id!,
        price_cents: facts.price_cents!,
        payout_cents: facts.payout_cents!,
        currency: facts.currency!,
        matched_at: iso(facts.matched_at)!,
      }
    : facts.unsold_reason
      ? { unsold_reason: facts.unsold_reason, routed_at: iso(facts.routed_at) }
      : null
  return {
    buyer_id: facts.buyer_id,
    price_cents: facts.price_cents,
    payout_cents: facts.payout_cents,
    currency: facts.currency,
    unsold_reason: facts.unsold_reason,
    routing,
  }
}

/** GET /v1/requests/{id}: the lookup view's statuses (received, accepted, matched, paid_out, returned; rejected and flagged). */
export function lookupStatus(status: string) {
  return LOOKUP_STATUS[status] ?? 'received'
}
