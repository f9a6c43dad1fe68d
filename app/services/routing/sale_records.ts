import type AuditChainService from '#services/audit/audit_chain_service'
import type { ChainHead } from '#services/audit/audit_chain_service'
import type OutboxService from '#services/webhooks/outbox_service'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import type { ReservedUnits } from '#services/routing/caps'
import type { FundsHold } from '#services/routing/funds'
import { matchFoundData } from '#services/routing/match_event'
import { type NewSale, salesOf } from '#services/routing/sale_offers'
import type { Decision } from '#services/routing/sale_types'
import { ledgerInsert, saleMovement } from '#services/money/ledger'
import { type Part, insertRows, rawPart, rowsOf } from '#services/sql/insert_together'

const HOUR_MS = 3_600_000

const FACT_COLUMNS = [
  ['lead_id', 'uuid'],
  ['at', 'timestamptz'],
  ['sold_now', 'int'],
  ['first_buyer', 'uuid'],
  ['first_rule', 'uuid'],
  ['price', 'int'],
  ['payout', 'int'],
  ['currency', 'text'],
  ['window_hours', 'int'],
  ['unsold_reason', 'text'],
  ['sale_status', 'text'],
  ['started', 'timestamptz'],
  ['lease', 'timestamptz'],
  ['attempts_added', 'int'],
] as const

const ATTEMPT_COLUMNS = [
  ['id', 'uuid'],
  ['lead_id', 'uuid'],
  ['routing_rule_id', 'uuid'],
  ['buyer_id', 'uuid'],
  ['destination_id', 'uuid'],
  ['destination_kind', 'text'],
  ['kind', 'text'],
  ['outcome', 'text'],
  ['price_cents', 'int'],
  ['payout_cents', 'int'],
  ['currency', 'text'],
  ['exclusive', 'boolean'],
  ['caps', 'jsonb'],
  ['auction_id', 'uuid'],
  ['bid_id', 'text'],
  ['started_at', 'timestamptz'],
  ['duration_ms', 'int'],
] as const

const SALE_COLUMNS = [
  ['id', 'uuid'],
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['label_id', 'uuid'],
  ['buyer_id', 'uuid'],
  ['routing_rule_id', 'uuid'],
  ['destination_id', 'uuid'],
  ['environment', 'text'],
  ['price_cents', 'int'],
  ['payout_cents', 'int'],
  ['currency', 'text'],
  ['exclusive', 'boolean'],
  ['buyer_lead_id', 'text'],
  ['sold_at', 'timestamptz'],
  ['settlement', 'text'],
  ['settles_at', 'timestamptz'],
] as const

const CLOSED_COLUMNS = [
  ['id', 'uuid'],
  ['outcome', 'text'],
  ['reason', 'text'],
  ['buyer_lead_id', 'text'],
  ['answered_price_cents', 'int'],
  ['bid_cents', 'int'],
  ['bid_id', 'text'],
  ['bid_expires_at', 'timestamptz'],
  ['http_status', 'int'],
  ['request', 'jsonb'],
  ['response_excerpt', 'text'],
  ['duration_ms', 'int'],
] as const

const AUCTION_COLUMNS = [
  ['id', 'uuid'],
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['environment', 'text'],
  ['transcript', 'jsonb'],
  ['digest', 'char(64)'],
  ['created_at', 'timestamptz'],
] as const

type Context = {
  heads: Map<string, ChainHead>
  endpoints: SubscribedEndpoint[]
  audit: AuditChainService
  outbox: OutboxService
}

/**
 * Everything a group's decisions change, as parts of one statement: each lead's facts, the
 * sold leads in their schema, the sales, the attempts opened and closed, auctions closed, the
 * ledger, the audit trails, and `match.found` with its deliveries for what sold by webhook. Cap
 * counters are written before these by the caller (their answer says whether the decisions hold).
 */
export function saleWrites(decisions: Decision[], context: Context): Part[] {
  if (decisions.length === 0) return []
  const rows = {
    facts: [] as Record<string, unknown>[],
    matched: [] as { lead_id: string; at: Date }[],
    sales: [] as Record<string, unknown>[],
    attempts: [] as Record<string, unknown>[],
    closed: [] as Record<string, unknown>[],
    auctions: [] as Record<string, unknown>[],
    ledger: [] as ReturnType<typeof saleMovement>,
  }
  const trails: Parameters<AuditChainService['extendTrailInserts']>[0] = []
  const events: Parameters<OutboxService['stage']>[0] = []

  for (const decision of decisions) {
    const { fact, now } = decision.task
    const sales = salesOf(decision)
    const done = decision.walk.done
    const opened = openedAttempts(decision, sales)
    rows.facts.push({
      lead_id: fact.lead_id,
      at: now,
      sold_now: sales.length,
      first_buyer: sales[0]?.buyerId ?? null,
      first_rule: sales[0]?.ruleId ?? null,
      price: sales.reduce((sum, sale) => sum + sale.priceCents, 0),
      payout: sales.reduce((sum, sale) => sum + sale.payoutCents, 0),
      currency: sales[0]?.currency ?? null,
      window_hours: sales[0]?.windowHours ?? 0,
      unsold_reason: done?.unsold ?? null,
      sale_status: done
        ? decision.previouslySold || sales.length > 0
          ? 'sold'
          : 'unsold'
        : 'selling',
      started: done ? null : decision.runStartedAt,
      lease: decision.leaseUntil,
      attempts_added: opened.length,
    })
    rows.attempts.push(...opened)
    rows.closed.push(...decision.closed.map(closedRow))
    if (decision.transcript) {
      rows.auctions.push({
        id: decision.transcript.transcript.id,
        lead_id: fact.lead_id,
        publisher_id: fact.publisher_id,
        environment: fact.environment,
        transcript: JSON.stringify(decision.transcript.transcript),
        digest: decision.transcript.digest,
        created_at: now,
      })
    }
    if (sales.length > 0 && !decision.previouslySold)
      rows.matched.push({ lead_id: fact.lead_id, at: now })
    for (const sale of sales) {
      rows.sales.push(saleRow(decision, sale))
      // The sale is booked with the match, pending until the buyer's return window closes.
      rows.ledger.push(
        ...saleMovement({
          leadId: fact.lead_id,
          publisherId: fact.publisher_id,
          buyerId: sale.buyerId,
          priceCents: sale.priceCents,
          payoutCents: sale.payoutCents,
          currency: sale.currency,
          environment: fact.environment,
        })
      )
      if (sale.webhook) {
        // Only the buyer's endpoints get this event: it carries the contact and the price, so no publisher id.
        const { pick } = sale.webhook
        events.push({
          type: 'match.found',
          publisherId: null,
          buyerId: sale.buyerId,
          leadId: fact.lead_id,
          environment: fact.environment,
          data: matchFoundData(
            decision.lead,
            { ...pick.rule, priceCents: pick.priceCents },
            fact.label_slug ?? null,
            now
          ),
        })
      }
    }
    const entries = [
      ...(decision.transcript
        ? [
            {
              event: 'lead.auctioned',
              // The transcript's digest in the actor binds the auction into the lead's hash chain.
              actor: `auction:${decision.transcript.digest}`,
              statusFrom: decision.lead.status,
              statusTo: decision.lead.status,
            },
          ]
        : []),
      ...sales.map((sale, index) => ({
        event: 'lead.delivered',
        actor: `rule:${sale.ruleId}`,
        statusFrom: index === 0 && !decision.previouslySold ? 'accepted' : 'matched',
        statusTo: 'matched',
      })),
    ]
    if (entries.length > 0) {
      trails.push({
        head: context.heads.get(fact.lead_id)!,
        input: {
          publisherId: fact.publisher_id,
          leadId: fact.lead_id,
          environment: fact.environment,
          entries,
        },
      })
    }
  }

  const parts: Part[] = [factsUpdate(rows.facts)]
  if (rows.closed.length > 0) parts.push(attemptsClose(rows.closed))
  if (rows.attempts.length > 0)
    parts.push(insertRows('sale_attempts', ATTEMPT_COLUMNS, rows.attempts))
  if (rows.matched.length > 0) parts.push(leadsMatched(rows.matched))
  if (rows.sales.length > 0) parts.push(insertRows('public.sales', SALE_COLUMNS, rows.sales))
  if (rows.auctions.length > 0)
    parts.push(insertRows('public.auctions', AUCTION_COLUMNS, rows.auctions))
  if (rows.ledger.length > 0) parts.push(ledgerInsert(rows.ledger))
  if (trails.length > 0) parts.push(...context.audit.extendTrailInserts(trails).parts)
  if (events.length > 0) {
    const at = new Date(Math.max(...decisions.map(({ task }) => task.now.getTime())))
    parts.push(...context.outbox.writes(context.outbox.stage(events, at), context.endpoints))
  }
  return parts
}

/** The attempts a step opens: its webhook sales (answered at once), its post and its pings. */
function openedAttempts(decision: Decision, sales: NewSale[]) {
  const { fact, now } = decision.task
  const row = (attempt: {
    id: string
    ruleId: string
    buyerId: string
    destinationId: string | null
    destinationKind: string
    kind: 'ping' | 'post'
    outcome: string | null
    priceCents: number | null
    payoutCents: number | null
    currency: string | null
    exclusive: boolean
    caps: (ReservedUnits[number] | FundsHold)[]
    auctionId?: string | null
    bidId?: string | null
    durationMs: number | null
  }) => ({
    id: attempt.id,
    lead_id: fact.lead_id,
    routing_rule_id: attempt.ruleId,
    buyer_id: attempt.buyerId,
    destination_id: attempt.destinationId,
    destination_kind: attempt.destinationKind,
    kind: attempt.kind,
    outcome: attempt.outcome,
    price_cents: attempt.priceCents,
    payout_cents: attempt.payoutCents,
    currency: attempt.currency,
    exclusive: attempt.exclusive,
    caps: JSON.stringify(attempt.caps),
    auction_id: attempt.auctionId ?? null,
    bid_id: attempt.bidId ?? null,
    started_at: now,
    duration_ms: attempt.durationMs,
  })
  const opened = sales.flatMap((sale) =>
    sale.webhook
      ? [
          row({
            id: sale.attemptId,
            ruleId: sale.ruleId,
            buyerId: sale.buyerId,
            destinationId: sale.destinationId,
            destinationKind: 'webhook',
            kind: 'post',
            outcome: 'accepted',
            priceCents: sale.priceCents,
            payoutCents: sale.payoutCents,
            currency: sale.currency,
            exclusive: sale.exclusive,
            caps: [...sale.webhook.pick.units, ...sale.webhook.pick.funds],
            bidId: sale.webhook.pick.bidId,
            durationMs: 0,
          }),
        ]
      : []
  )
  const { offer, auction, walk } = decision
  if (offer && walk.offer) {
    opened.push(
      row({
        id: offer.attemptId,
        ruleId: offer.ruleId,
        buyerId: offer.buyerId,
        destinationId: offer.destinationId,
        destinationKind: offer.destinationKind,
        kind: 'post',
        outcome: null,
        priceCents: offer.priceCents,
        payoutCents: offer.payoutCents,
        currency: offer.currency,
        exclusive: offer.exclusive,
        caps: [...walk.offer.units, ...walk.offer.funds],
        bidId: walk.offer.bidId,
        durationMs: null,
      })
    )
  }
  if (auction) {
    for (const ping of auction.pings) {
      opened.push(
        row({
          id: ping.attemptId,
          ruleId: ping.ruleId,
          buyerId: ping.buyerId,
          destinationId: ping.destinationId,
          destinationKind: 'http',
          kind: 'ping',
          outcome: null,
          priceCents: null,
          payoutCents: null,
          currency: null,
          exclusive: true,
          caps: [],
          auctionId: auction.auctionId,
          durationMs: null,
        })
      )
    }
  }
  return opened
}

function closedRow(closed: Decision['closed'][number]) {
  const { post, ping } = closed
  const answer = (post ?? ping)!
  return {
    id: closed.attemptId,
    outcome: answer.outcome,
    reason: answer.reason?.slice(0, 200) ?? null,
    buyer_lead_id: post?.buyerLeadId?.slice(0, 200) ?? null,
    answered_price_cents: post?.priceCents ?? null,
    bid_cents: ping?.bidCents ?? null,
    bid_id: ping?.bidId?.slice(0, 200) ?? null,
    bid_expires_at: ping?.expiresAt ?? null,
    http_status: answer.httpStatus,
    request: answer.request === null ? null : JSON.stringify(answer.request),
    response_excerpt: answer.responseExcerpt,
    duration_ms: answer.durationMs,
  }
}

function saleRow(decision: Decision, sale: NewSale) {
  const { fact, now } = decision.task
  return {
    id: sale.saleId,
    lead_id: fact.lead_id,
    publisher_id: fact.publisher_id,
    label_id: fact.label_id,
    buyer_id: sale.buyerId,
    routing_rule_id: sale.ruleId,
    destination_id: sale.destinationId,
    environment: fact.environment,
    price_cents: sale.priceCents,
    payout_cents: sale.payoutCents,
    currency: sale.currency,
    exclusive: sale.exclusive,
    buyer_lead_id: sale.buyerLeadId,
    sold_at: now,
    // Each sale's money is pending until its own buyer's return window closes (docs/money.md).
    settlement: 'pending',
    settles_at: new Date(now.getTime() + sale.windowHours * HOUR_MS),
  }
}

function leadsMatched(matched: { lead_id: string; at: Date }[]): Part {
  const sold = rowsOf(
    [
      ['lead_id', 'uuid'],
      ['at', 'timestamptz'],
    ],
    matched
  )
  return rawPart(
    `UPDATE leads l SET status = 'matched', updated_at = v.at FROM ${sold.from} WHERE l.id = v.lead_id`,
    sold.bindings
  )
}

/** Each lead's facts: its sale's state, and the sales' money added to what it had. */
function factsUpdate(facts: Record<string, unknown>[]): Part {
  const values = rowsOf(FACT_COLUMNS, facts)
  const sold = 'v.sold_now > 0'
  return rawPart(
    `UPDATE public.lead_facts f SET
       status = CASE WHEN ${sold} THEN 'matched' ELSE f.status END,
       buyer_id = CASE WHEN ${sold} THEN coalesce(f.buyer_id, v.first_buyer) ELSE f.buyer_id END,
       routing_rule_id = CASE WHEN ${sold} THEN coalesce(f.routing_rule_id, v.first_rule)
                              ELSE f.routing_rule_id END,
       price_cents = CASE WHEN ${sold} THEN coalesce(f.price_cents, 0) + v.price ELSE f.price_cents END,
       payout_cents = CASE WHEN ${sold} THEN coalesce(f.payout_cents, 0) + v.payout
                           ELSE f.payout_cents END,
       currency = CASE WHEN ${sold} THEN coalesce(f.currency, v.currency) ELSE f.currency END,
       matched_at = CASE WHEN ${sold} THEN coalesce(f.matched_at, v.at) ELSE f.matched_at END,
       settlement = CASE WHEN ${sold} THEN coalesce(f.settlement, 'pending') ELSE f.settlement END,
       settles_at = CASE WHEN ${sold}
                         THEN coalesce(f.settles_at, v.at + make_interval(hours => v.window_hours))
                         ELSE f.settles_at END,
       unsold_reason = v.unsold_reason, routed_at = v.at, sale_status = v.sale_status,
       sale_started_at = v.started, sale_lease_until = v.lease,
       sale_attempts = f.sale_attempts + v.attempts_added, updated_at = v.at
     FROM ${values.from} WHERE f.lead_id = v.lead_id`,
    values.bindings
  )
}

function attemptsClose(rows: Record<string, unknown>[]): Part {
  const values = rowsOf(CLOSED_COLUMNS, rows)
  return rawPart(
    `UPDATE sale_attempts a SET outcome = v.outcome, reason = v.reason,
       buyer_lead_id = v.buyer_lead_id, answered_price_cents = v.answered_price_cents,
       bid_cents = v.bid_cents, bid_id = coalesce(v.bid_id, a.bid_id),
       bid_expires_at = v.bid_expires_at, http_status = v.http_status, request = v.request,
       response_excerpt = v.response_excerpt, duration_ms = v.duration_ms
     FROM ${values.from} WHERE a.id = v.id`,
    values.bindings
  )
}
