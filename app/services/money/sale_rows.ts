import type { Environment } from '#auth/principal'
import type { Sale } from '#services/money/ledger'

/** The columns of a sold lead's facts that money reads (`lead_facts`). */
export const SALE_COLUMNS = `f.lead_id, f.publisher_id, f.buyer_id, f.label_id, f.price_cents,
  f.payout_cents, f.currency, f.settlement, f.settles_at, f.matched_at, f.routing_rule_id, f.environment`

export type SaleFact = {
  lead_id: string
  publisher_id: string
  buyer_id: string
  label_id: string | null
  price_cents: number
  payout_cents: number
  currency: string
  settlement: 'pending' | 'payable' | 'returned' | 'paid_out'
  settles_at: Date
  matched_at: Date
  routing_rule_id: string | null
  environment: Environment
}

export function saleOf(fact: SaleFact): Sale {
  return {
    leadId: fact.lead_id,
    publisherId: fact.publisher_id,
    buyerId: fact.buyer_id,
    priceCents: fact.price_cents,
    payoutCents: fact.payout_cents,
    currency: fact.currency,
    environment: fact.environment,
  }
}

/** An open dispute holds a sale's money where it is: the window closing does not make it final. */
export const NO_OPEN_DISPUTE = `NOT EXISTS (SELECT 1 FROM public.disputes d
  WHERE d.lead_id = f.lead_id AND d.status IN ('open', 'responded'))`
