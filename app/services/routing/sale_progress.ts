import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { CapLedger, ReservedUnits } from '#services/routing/caps'
import { type FundsHold, type FundsLedger, isFundsHold } from '#services/routing/funds'
import type { PastAttempt } from '#services/routing/sale_walk'
import type { SaleSettings } from '#services/routing/sale_settings'
import type {
  AuctionTranscript,
  ClosedAttempt,
  LeadFact,
  PingAnswer,
  PostAnswer,
  SaleAuction,
  SaleOffer,
  StoredLead,
} from '#services/routing/sale_types'

/** A `sale_attempts` row as routing reads it. */
export type AttemptRow = {
  id: string
  lead_id: string
  routing_rule_id: string | null
  buyer_id: string
  kind: 'ping' | 'post'
  outcome: string | null
  exclusive: boolean
  /** The cap units the attempt holds, and its funds hold beside them. */
  caps: (ReservedUnits[number] | FundsHold)[]
  started_at: Date
  auction_id: string | null
  bid_cents: number | null
  bid_id: string | null
  bid_expires_at: Date | null
  price_cents: number | null
}

/** A task's answer: what a post's buyer said, or what the pinged buyers bid. */
export type TaskAnswer =
  { offer: SaleOffer; result: PostAnswer } | { auction: SaleAuction; pings: PingAnswer[] }

/** The earlier attempts of the leads that have some (a count in their facts says which). */
export async function attemptsOf(
  trx: TransactionClientContract,
  tasks: { fact: LeadFact; answer?: TaskAnswer }[]
) {
  const ids = tasks
    .filter((task) => task.answer || task.fact.sale_attempts > 0)
    .map((task) => task.fact.lead_id)
  const byLead = new Map<string, AttemptRow[]>()
  if (ids.length === 0) return byLead
  const result = await trx.rawQuery(
    `SELECT id, lead_id, routing_rule_id, buyer_id, kind, outcome, exclusive, caps, started_at,
            auction_id, bid_cents, bid_id, bid_expires_at, price_cents
       FROM sale_attempts WHERE lead_id = ANY(?::uuid[]) ORDER BY started_at, id`,
    [ids]
  )
  for (const row of result.rows as AttemptRow[]) {
    byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), row])
  }
  return byLead
}

/**
 * Whether a task may go on: an answer needs its attempts still in flight (a lapsed lease let
 * another worker close them); a new sale needs an accepted, unsold lead with consent, and no
 * post or ping of it in flight.
 */
export function gate(
  task: { answer?: TaskAnswer; now: Date },
  lead: StoredLead,
  past: AttemptRow[]
) {
  if (task.answer) {
    const ids =
      'offer' in task.answer
        ? [task.answer.offer.attemptId]
        : task.answer.pings.map((ping) => ping.attemptId)
    const open = past.some((attempt) => ids.includes(attempt.id) && attempt.outcome === null)
    return open ? null : ('not_accepted' as const)
  }
  if (lead.status !== 'accepted' || lead.fact_buyer_id || lead.consent?.revoked_at) {
    return 'not_accepted' as const
  }
  const lease = lead.fact_sale_lease_until ? new Date(lead.fact_sale_lease_until) : null
  if (lease && lease > task.now && past.some((attempt) => attempt.outcome === null)) {
    return 'in_progress' as const
  }
  return null
}

/**
 * Closes the lead's attempts in flight: those whose answer this task brings, with it, and any
 * other whose lease lapsed (its worker died) as an `error` post or a `no_bid` ping. A post the
 * buyer did not take gives its cap units back. The rows are updated in memory too, so the walk
 * reads them closed.
 */
export function closeInFlight(
  task: { answer?: TaskAnswer; now: Date },
  past: AttemptRow[],
  caps: CapLedger,
  funds: FundsLedger
) {
  const closed: ClosedAttempt[] = []
  const answer = task.answer
  const pings = new Map(
    answer && 'pings' in answer ? answer.pings.map((ping) => [ping.attemptId, ping]) : []
  )
  for (const attempt of past) {
    if (attempt.outcome !== null) continue
    const elapsed = Math.max(0, task.now.getTime() - new Date(attempt.started_at).getTime())
    const base = {
      attemptId: attempt.id,
      kind: attempt.kind,
      buyerId: attempt.buyer_id,
      ruleId: attempt.routing_rule_id,
    }
    if (attempt.kind === 'ping') {
      const ping = pings.get(attempt.id) ?? lapsedPing(attempt.id, elapsed)
      const expiresAt =
        ping.expiresInSeconds !== null
          ? new Date(task.now.getTime() + ping.expiresInSeconds * 1000)
          : null
      Object.assign(attempt, {
        outcome: ping.outcome,
        bid_cents: ping.bidCents,
        bid_id: ping.bidId,
        bid_expires_at: expiresAt,
      })
      closed.push({ ...base, post: null, ping: { ...ping, expiresAt }, offer: null })
      continue
    }
    const own = answer && 'offer' in answer && answer.offer.attemptId === attempt.id ? answer : null
    const post = own?.result ?? lapsedPost(elapsed)
    attempt.outcome = post.outcome
    const holds = attempt.caps.filter(isFundsHold)
    if (post.outcome === 'accepted') {
      funds.capture(holds)
    } else {
      caps.release(attempt.caps.filter((unit) => !isFundsHold(unit)) as ReservedUnits)
      funds.release(holds)
    }
    closed.push({ ...base, post, ping: null, offer: own?.offer ?? null })
  }
  return closed
}

function lapsedPost(durationMs: number): PostAnswer {
  return {
    outcome: 'error',
    reason: 'interrupted',
    buyerLeadId: null,
    priceCents: null,
    httpStatus: null,
    durationMs,
    request: null,
    responseExcerpt: null,
  }
}

function lapsedPing(attemptId: string, durationMs: number): PingAnswer {
  return {
    attemptId,
    outcome: 'no_bid',
    reason: 'interrupted',
    bidCents: null,
    bidId: null,
    expiresInSeconds: null,
    httpStatus: null,
    durationMs,
    request: null,
    responseExcerpt: null,
  }
}

export function pastAttempt(row: AttemptRow): PastAttempt {
  return {
    id: row.id,
    routingRuleId: row.routing_rule_id,
    buyerId: row.buyer_id,
    kind: row.kind,
    outcome: row.outcome,
    exclusive: row.exclusive,
    startedAt: new Date(row.started_at),
    bidCents: row.bid_cents,
    bidId: row.bid_id,
    bidExpiresAt: row.bid_expires_at ? new Date(row.bid_expires_at) : null,
  }
}

/**
 * The transcript of this sale's auction, once the sale is over: every buyer pinged and what it
 * bid, the fixed prices it competed with, who took the lead and what it pays. Its digest is the
 * SHA-256 of its RFC 8785 canonical JSON.
 */
export function auctionTranscript(input: {
  leadId: string
  runStartedAt: Date | null
  past: AttemptRow[]
  fixed: { buyerId: string; priceCents: number }[]
  winner: { buyerId: string; priceCents: number } | null
  settings: SaleSettings
  at: Date
}) {
  const run = input.past.filter(
    (attempt) => input.runStartedAt && new Date(attempt.started_at) >= input.runStartedAt
  )
  const pings = run.filter((attempt) => attempt.kind === 'ping')
  if (pings.length === 0) return null
  const transcript: AuctionTranscript = {
    id: pings[0].auction_id!,
    lead_id: input.leadId,
    mode: 'ping_post',
    auction: input.settings.auction,
    tmax_ms: input.settings.tmaxMs,
    bids: [
      ...pings.map((ping) => ({
        buyer_id: ping.buyer_id,
        kind: 'bid' as const,
        bid_cents: ping.bid_cents,
        bid_id: ping.bid_id,
        outcome: ping.outcome ?? 'no_bid',
      })),
      ...input.fixed.map((fixed) => ({
        buyer_id: fixed.buyerId,
        kind: 'fixed' as const,
        bid_cents: fixed.priceCents,
        bid_id: null,
        outcome: 'fixed_price',
      })),
    ],
    winner_buyer_id: input.winner?.buyerId ?? null,
    clearing_cents: input.winner?.priceCents ?? null,
    closed_at: input.at.toISOString(),
  }
  const digest = createHash('sha256').update(canonicalize(transcript)!).digest('hex')
  return { transcript, digest }
}
