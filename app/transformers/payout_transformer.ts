import type { PayoutLine } from '#services/money/payout_maker'
import type { PayoutRow } from '#services/money/payout_service'

const iso = (moment: Date | string | null) => (moment ? new Date(moment).toISOString() : null)

/**
 * A payout as its publisher and the operator read it: what it earns, never
 * what a buyer paid. Lines (one per sale, clawback or adjustment) come with
 * a single payout; the list leaves them out.
 */
export function payoutToJson(payout: PayoutRow, lines?: PayoutLine[]) {
  return {
    id: payout.id,
    publisher_id: payout.publisher_id,
    period: { start: payout.period_start, end: payout.period_end },
    amount_cents: payout.amount_cents,
    currency: payout.currency,
    status: payout.status,
    reference: payout.reference,
    failure: payout.failure,
    lead_count: payout.lead_count,
    environment: payout.environment,
    ...(lines ? { lines } : {}),
    created_at: iso(payout.created_at),
    paid_at: iso(payout.paid_at),
  }
}
