import type { DestinationKind } from '#models/destination'
import type { MatchFoundData } from '#services/webhooks/event_schemas'
import type { WalkResult } from '#services/routing/sale_walk'
import type { UnsoldReason } from '#services/routing/selection'
import type { Environment } from '#auth/principal'
import type { PingPolicy } from '#services/routing/sale_settings'

/** A lead's facts as routing reads them before it locks the lead. */
export type LeadFact = {
  lead_id: string
  environment: Environment
  status: string
  buyer_id: string | null
  publisher_id: string
  label_id: string | null
  sale_attempts: number
  schema_name: string
  country: string
  label_slug: string | null
  label_sale: unknown
  rules_version: string
}

/** The locked lead row, with its facts' sale state. */
export type StoredLead = {
  id: string
  status: string
  contact: Record<string, any>
  provenance: Record<string, any>
  consent: Record<string, any>
  attributes: Record<string, string | number | boolean> | null
  fact_buyer_id: string | null
  fact_sale_started_at: Date | null
  fact_sale_lease_until: Date | null
  /** The payout a publisher's ping was offered (DESIGN §14, inbound ping-post), if it was. */
  fact_offered_payout_cents: number | null
}

/** The lead as a buyer's system receives it: `match.found`'s body, and a winning bid's id. */
export type SaleLead = MatchFoundData & { bid_id?: string | null }

/** A post routing asks for after its commit: where to, at what price, and the lead to send. */
export type SaleOffer = {
  attemptId: string
  leadId: string
  publisherId: string
  labelId: string | null
  environment: Environment
  ruleId: string
  buyerId: string
  destinationId: string | null
  destinationKind: DestinationKind
  priceCents: number
  payoutCents: number
  currency: string
  windowHours: number
  exclusive: boolean
  timeoutMs: number
  at: Date
  lead: SaleLead
}

/** The pings of an auction routing asks for after its commit: every ping-post buyer at once. */
export type SaleAuction = {
  auctionId: string
  leadId: string
  environment: Environment
  /** How long the auction waits for bids (the label's `tmax_ms`). */
  tmaxMs: number
  /** The label's ping policy per field (docs/selling.md, "Ping-post"). */
  pingPolicy: PingPolicy
  pings: { attemptId: string; ruleId: string; buyerId: string; destinationId: string }[]
  at: Date
  /** The whole lead: only its ping policy's partial lead ever leaves in a ping. */
  lead: SaleLead
}

/** What a buyer's system answered a post (docs/selling.md, "Response rules"). */
export type PostAnswer = {
  outcome: 'accepted' | 'rejected' | 'duplicate' | 'timeout' | 'error'
  reason: string | null
  buyerLeadId: string | null
  /** A price the answer named; the sale still books its own price. */
  priceCents: number | null
  httpStatus: number | null
  durationMs: number
  /** The request as sent, its secrets masked; personal data, kept with the lead. */
  request: Record<string, unknown> | null
  responseExcerpt: string | null
}

/** What a buyer's system answered a ping. */
export type PingAnswer = {
  attemptId: string
  outcome: 'bid' | 'no_bid'
  reason: string | null
  bidCents: number | null
  bidId: string | null
  /** How long the buyer holds its bid, when it says so. */
  expiresInSeconds: number | null
  httpStatus: number | null
  durationMs: number
  request: Record<string, unknown> | null
  responseExcerpt: string | null
}

export type RoutingOutcome =
  | {
      outcome: 'matched'
      leadId: string
      /** The first sale this step recorded. */
      ruleId: string | null
      buyerId: string | null
    }
  | { outcome: 'offer'; leadId: string; offer: SaleOffer }
  | { outcome: 'auction'; leadId: string; auction: SaleAuction }
  | { outcome: 'unsold'; leadId: string; reason: UnsoldReason }
  | { outcome: 'skipped'; leadId: string; reason: 'unknown' | 'not_accepted' | 'in_progress' }

/** An attempt this step closed: a post's or a ping's answer, or one whose lease lapsed. */
export type ClosedAttempt = {
  attemptId: string
  kind: 'ping' | 'post'
  buyerId: string
  ruleId: string | null
  post: PostAnswer | null
  ping: (PingAnswer & { expiresAt: Date | null }) | null
  /** The offer of an accepted post: its sale is recorded now. */
  offer: SaleOffer | null
}

/** An auction over: its transcript (no personal data) and the digest that goes into the trail. */
export type AuctionTranscript = {
  id: string
  lead_id: string
  mode: 'ping_post'
  auction: 'first_price' | 'second_price'
  tmax_ms: number
  bids: {
    buyer_id: string
    kind: 'bid' | 'fixed'
    bid_cents: number | null
    bid_id: string | null
    outcome: string
  }[]
  winner_buyer_id: string | null
  clearing_cents: number | null
  closed_at: string
}

/** Everything one lead's step decided, for the writes of its transaction. */
export type Decision = {
  task: { fact: LeadFact; now: Date }
  lead: StoredLead
  walk: WalkResult
  closed: ClosedAttempt[]
  /** The offer to post after the commit (`walk.offer` with its attempt id). */
  offer: SaleOffer | null
  /** The auction to run after the commit (`walk.auction` with its attempts' ids). */
  auction: SaleAuction | null
  /** An auction of this sale that the step closes, with its digest. */
  transcript: { transcript: AuctionTranscript; digest: string } | null
  /** When this run of the sale began, or null once it is over. */
  runStartedAt: Date | null
  leaseUntil: Date | null
  /** The lead was sold before this step (a shared sale going on). */
  previouslySold: boolean
}
