/** The operator's money pages, as their controllers send them (app/controllers/portal/money_operator_controller.ts, payouts_controller.ts). */
import type { CurrencyFigures } from '#services/money/settlement_service'
import type { PayoutStatus } from '#services/money/payout_service'
import type { PayoutLine } from '#services/money/payout_maker'

export type { Choice } from '~/components/catalogue/types'
/** The settlement overview's rows, in the service's own vocabulary (types only: nothing of the server reaches the bundle). */
export type { OverviewFigures, OverviewRow } from '#services/money/settlement_overview'
export type { PayoutLine, PayoutStatus }
/** GET /v1/labels/{id}/settlement-policy */
export type { SettlementPolicy } from '#services/money/settlement_policy_service'

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
  currencies: CurrencyFigures[]
  accepted_leads: number
  returned_leads: number
  open_disputes: number
  next_payout: { date: string; schedule: string; minimum_payout_cents: number }
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
  /** Live sales, or the sandbox's (docs/money.md, "Sandbox"). */
  environment: 'live' | 'sandbox'
  lines?: PayoutLine[]
  created_at: string | null
  paid_at: string | null
}
