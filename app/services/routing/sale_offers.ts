import { uuidv7 } from 'uuidv7'
import type { DestinationKind } from '#models/destination'
import type { ActiveRule } from '#services/routing/rule_book'
import type { Pick } from '#services/routing/sale_walk'
import type { SaleSettings } from '#services/routing/sale_settings'
import { matchFoundData } from '#services/routing/match_event'
import type {
  Decision,
  LeadFact,
  SaleAuction,
  SaleOffer,
  StoredLead,
} from '#services/routing/sale_types'

/**
 * What the publisher earns on a sale: a ping-post rule's share of the clearing price, or its
 * payout up to that price (a bid may clear below it); a fixed rule's payout as the operator set
 * it, even above its price.
 */
export function payoutOf(rule: ActiveRule, priceCents: number) {
  if (rule.payoutSharePercent !== null) {
    return Math.floor((priceCents * rule.payoutSharePercent) / 100)
  }
  return rule.mode === 'ping_post' ? Math.min(rule.payoutCents, priceCents) : rule.payoutCents
}

/**
 * What the lead's first sale pays its publisher when the lead was posted on a ping's offer: the
 * payout offered, whichever buyer takes it (the operator promised it); null otherwise, and for
 * the further sales of a shared lead, which pay their rules' payouts.
 */
export function offeredPayout(lead: StoredLead, previouslySold: boolean) {
  return previouslySold ? null : (lead.fact_offered_payout_cents ?? null)
}

/** The lead as the buyer of a pick receives it: at the pick's price, with its bid id. */
export function leadFor(fact: LeadFact, lead: StoredLead, pick: Pick, at: Date) {
  const data = matchFoundData(
    lead,
    { ...pick.rule, priceCents: pick.priceCents },
    fact.label_slug,
    at
  )
  return pick.bidId !== null ? { ...data, bid_id: pick.bidId } : data
}

export function offerOf(
  fact: LeadFact,
  lead: StoredLead,
  pick: Pick | null,
  at: Date,
  offered: number | null = null
) {
  if (!pick) return null
  const { rule } = pick
  return {
    attemptId: uuidv7(),
    leadId: fact.lead_id,
    publisherId: fact.publisher_id,
    labelId: fact.label_id,
    environment: fact.environment,
    ruleId: rule.id,
    buyerId: rule.buyerId,
    destinationId: rule.destinationId,
    destinationKind: rule.destinationKind,
    priceCents: pick.priceCents,
    payoutCents: offered ?? payoutOf(rule, pick.priceCents),
    currency: rule.currency,
    windowHours: rule.returnWindowHours,
    exclusive: pick.exclusive,
    timeoutMs: rule.destinationTimeoutMs,
    at,
    lead: leadFor(fact, lead, pick, at),
  } satisfies SaleOffer
}

export function auctionOf(
  fact: LeadFact,
  lead: StoredLead,
  rules: ActiveRule[] | undefined,
  settings: SaleSettings,
  at: Date
): SaleAuction | null {
  if (!rules) return null
  return {
    auctionId: uuidv7(),
    leadId: fact.lead_id,
    environment: fact.environment,
    tmaxMs: settings.tmaxMs,
    pingPolicy: settings.pingPolicy,
    pings: rules.map((rule) => ({
      attemptId: uuidv7(),
      ruleId: rule.id,
      buyerId: rule.buyerId,
      destinationId: rule.destinationId!,
    })),
    at,
    lead: matchFoundData(lead, rules[0], fact.label_slug, at),
  }
}

/** A sale a step records: a rule sold to by webhook, or a post its buyer accepted. */
export type NewSale = {
  saleId: string
  attemptId: string
  buyerId: string
  ruleId: string
  destinationId: string | null
  destinationKind: DestinationKind
  priceCents: number
  payoutCents: number
  currency: string
  windowHours: number
  exclusive: boolean
  buyerLeadId: string | null
  /** What sold by webhook, for its `match.found`; null for a post. */
  webhook: { pick: Pick } | null
}

export function salesOf(decision: Decision): NewSale[] {
  const accepted = decision.closed.flatMap(({ post, offer }): NewSale[] =>
    post?.outcome === 'accepted' && offer
      ? [
          {
            saleId: uuidv7(),
            attemptId: offer.attemptId,
            buyerId: offer.buyerId,
            ruleId: offer.ruleId,
            destinationId: offer.destinationId,
            destinationKind: offer.destinationKind,
            priceCents: offer.priceCents,
            payoutCents: offer.payoutCents,
            currency: offer.currency,
            windowHours: offer.windowHours,
            exclusive: offer.exclusive,
            buyerLeadId: post.buyerLeadId,
            webhook: null,
          },
        ]
      : []
  )
  const offered = offeredPayout(decision.lead, decision.previouslySold || accepted.length > 0)
  const byWebhook = decision.walk.sold.map((pick, index) => ({
    saleId: uuidv7(),
    attemptId: uuidv7(),
    buyerId: pick.rule.buyerId,
    ruleId: pick.rule.id,
    destinationId: pick.rule.destinationId,
    destinationKind: pick.rule.destinationKind,
    priceCents: pick.priceCents,
    payoutCents: (index === 0 ? offered : null) ?? payoutOf(pick.rule, pick.priceCents),
    currency: pick.rule.currency,
    windowHours: pick.rule.returnWindowHours,
    exclusive: pick.exclusive,
    buyerLeadId: null,
    webhook: { pick },
  }))
  return [...accepted, ...byWebhook]
}
