/**
 * The money pages of the publisher's and the buyer's portals, as their controllers send them
 * (app/controllers/portal/money_controller.ts, disputes_controller.ts): the API's JSON.
 */
import type { ConsentEvidence, Verification } from '~/components/leads/types'

export type {
  Payout,
  PayoutLine,
  PayoutStatus,
  Settlement,
} from '~/components/money/operator/types'

export type MoneyAudience = 'operator' | 'publisher' | 'buyer'

/** The delivery as each party may see it: the buyer its price, the publisher its payout. */
export type DisputeDelivery = {
  delivered_at: string | null
  routing_rule_id?: string | null
  price_cents?: number
  payout_cents?: number
  currency: string
}

/** GET /v1/disputes: a dispute without its thread and evidence. */
export type DisputeSummary = {
  id: string
  lead_id: string
  publisher_id?: string
  buyer_id?: string
  /** The operator's list names both parties. */
  publisher_name?: string | null
  buyer_name?: string | null
  reason: string
  status: string
  environment: 'live' | 'sandbox'
  opened_at: string | null
  respond_by: string | null
  decide_by: string | null
  responded_at: string | null
  withdrawn_at: string | null
  delivery: DisputeDelivery
  proof_url: string
  decision: { outcome: string; decided_by: string | null; decided_at: string | null } | null
}

export type ThreadMessage = {
  author: string
  text: string | null
  files: { id: string; filename: string; size_bytes: number; sha256: string }[]
  created_at: string | null
}

/** GET /v1/disputes/{id} */
export type Dispute = DisputeSummary & {
  consent_evidence: ConsentEvidence | null
  verification: Verification
  thread: ThreadMessage[]
}

/** What a publisher's answer may carry. */
export type AnswerLimits = {
  max_files: number
  max_file_bytes: number
  max_text_length: number
  file_types: string[]
}

/** A lead's return window, as its buyer's lead page asks for it. */
export type ReturnWindow = {
  settlement: string
  closes_at: string | null
  open: boolean
  dispute: { id: string; status: string } | null
  reasons: string[]
  /** Whether this user may return leads (the "submit" permission). */
  may_open: boolean
}

type SideTotal = { count: number; amount_cents: number }

/** GET /v1/buyers/{id}/statement, its lines apart. */
export type StatementTotals = {
  buyer_id: string
  from: string
  to: string
  currency: string
  accepted: SideTotal
  returned: SideTotal
  net_cents: number
  currencies: { currency: string; accepted: SideTotal; returned: SideTotal; net_cents: number }[]
}

export type StatementLine = {
  lead_id: string
  kind: 'accepted' | 'returned'
  amount_cents: number
  currency: string
  booked_at: string
}
