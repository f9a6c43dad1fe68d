/** The operator's money pages, as their controllers send them (app/controllers/portal/money_operator_controller.ts, payouts_controller.ts). */
export type { Choice } from '~/components/catalogue/types'

/** One currency of a publisher's money on the settlement overview. */
export type OverviewFigures = {
  currency: string
  pending_cents: number
  payable_cents: number
  paid_cents: number
  revenue_cents: number
  payout_cents: number
  margin_cents: number
}

export type OverviewRow = {
  publisher_id: string
  name: string
  slug: string
  label: { slug: string; name: string } | null
  accepted_leads: number
  returned_leads: number
  open_disputes: number
  currencies: OverviewFigures[]
}

export type SettlementTotals = {
  margin: { currency: string; pending_cents: number; earned_cents: number }[]
  disputes: { open: number; responded: number }
  unpaid_payouts: { currency: string; payouts: number; amount_cents: number }[]
}

/** GET /v1/settlement?publisher_id= */
export type Settlement = {
  publisher_id: string
  currency: string
  pending_cents: number
  payable_cents: number
  paid_cents: number
  currencies: {
    currency: string
    pending_cents: number
    payable_cents: number
    paid_cents: number
  }[]
  accepted_leads: number
  returned_leads: number
  open_disputes: number
  next_payout: { date: string; schedule: string; minimum_payout_cents: number }
}

export type PayoutStatus = 'scheduled' | 'processing' | 'paid' | 'failed'

export type PayoutLine = {
  lead_id: string | null
  kind: 'earning' | 'clawback' | 'adjustment'
  amount_cents: number
}

/** GET /v1/payouts/{id}; the list leaves out the lines. */
export type Payout = {
  id: string
  publisher_id: string
  period: { start: string | null; end: string }
  amount_cents: number
  currency: string
  status: PayoutStatus
  reference: string | null
  failure: string | null
  lead_count: number
  lines?: PayoutLine[]
  created_at: string | null
  paid_at: string | null
}

/** GET /v1/labels/{id}/settlement-policy */
export type SettlementPolicy = {
  payout_schedule: 'weekly' | 'monthly'
  minimum_payout_cents: number
  response_hours: number
  decision_hours: number
  default_outcome: 'upheld' | 'rejected'
}
