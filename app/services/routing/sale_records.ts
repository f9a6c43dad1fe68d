import { uuidv7 } from 'uuidv7'
import type AuditChainService from '#services/audit/audit_chain_service'
import type { ChainHead } from '#services/audit/audit_chain_service'
import type OutboxService from '#services/webhooks/outbox_service'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import type { MatchFoundData } from '#services/webhooks/event_schemas'
import type { DestinationKind } from '#models/destination'
import type { ActiveRule } from '#services/routing/rule_book'
import type { WalkResult } from '#services/routing/sale_walk'
import type { UnsoldReason } from '#services/routing/selection'
import { matchFoundData } from '#services/routing/match_event'
import { ledgerInsert, saleMovement } from '#services/money/ledger'
import { type Part, insertRows, rawPart, rowsOf } from '#services/sql/insert_together'
import type { Environment } from '#auth/principal'

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
export type StoredLead = Parameters<typeof matchFoundData>[0] & {
  status: string
  fact_buyer_id: string | null
  fact_sale_started_at: Date | null
  fact_sale_lease_until: Date | null
}

/** The lead as a buyer's system receives it: `match.found`'s body. */
export type SaleLead = MatchFoundData

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

/** What a buyer's system answered a post (docs/selling.md, "Response rules"). */
export type PostAnswer = {
  outcome: 'accepted' | 'rejected' | 'duplicate' | 'timeout' | 'error'
  reason: string | null
  buyerLeadId: string | null
  /** A price the answer named; the sale still books the rule's price. */
  priceCents: number | null
  httpStatus: number | null
  durationMs: number
  /** The request as sent, its secrets masked; personal data, kept with the lead. */
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
  | { outcome: 'unsold'; leadId: string; reason: UnsoldReason }
  | { outcome: 'skipped'; leadId: string; reason: 'unknown' | 'not_accepted' | 'in_progress' }

/** Everything one lead's step decided, for the writes of its transaction. */
export type Decision = {
  task: { fact: LeadFact; now: Date }
  lead: StoredLead
  walk: WalkResult
  /** Posts closed now: the one whose answer came, any whose lease lapsed. */
  closed: {
    attemptId: string
    answer: PostAnswer
    buyerId: string
    ruleId: string | null
    offer: SaleOffer | null
  }[]
  /** The offer to post after the commit (`walk.offer` with its attempt id). */
  offer: SaleOffer | null
  /** When this run of the sale began, or null once it is over. */
  runStartedAt: Date | null
  leaseUntil: Date | null
  /** The lead was sold before this step (a shared sale going on). */
  previouslySold: boolean
}

/** A sale this step records: a rule sold to by webhook, or a post its buyer accepted. */
type NewSale = {
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
  webhookRule: ActiveRule | null
}

export function offerOf(fact: LeadFact, lead: StoredLead, walk: WalkResult, at: Date) {
  if (!walk.offer) return null
  const { rule, exclusive } = walk.offer
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
    priceCents: rule.priceCents,
    payoutCents: rule.payoutCents,
    currency: rule.currency,
    windowHours: rule.returnWindowHours,
    exclusive,
    timeoutMs: rule.destinationTimeoutMs,
    at,
    lead: matchFoundData(lead, rule, fact.label_slug ?? null, at),
  } satisfies SaleOffer
}

function salesOf(decision: Decision): NewSale[] {
  const accepted = decision.closed.flatMap(({ answer, offer }) =>
    answer.outcome === 'accepted' && offer
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
            buyerLeadId: answer.buyerLeadId,
            webhookRule: null,
          },
        ]
      : []
  )
  const byWebhook = decision.walk.sold.map(({ rule, exclusive }) => ({
    saleId: uuidv7(),
    attemptId: uuidv7(),
    buyerId: rule.buyerId,
    ruleId: rule.id,
    destinationId: rule.destinationId,
    destinationKind: rule.destinationKind,
    priceCents: rule.priceCents,
    payoutCents: rule.payoutCents,
    currency: rule.currency,
    windowHours: rule.returnWindowHours,
    exclusive,
    buyerLeadId: null,
    webhookRule: rule,
  }))
  return [...accepted, ...byWebhook]
}

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
  ['reason', 'text'],
  ['price_cents', 'int'],
  ['payout_cents', 'int'],
  ['currency', 'text'],
  ['exclusive', 'boolean'],
  ['caps', 'jsonb'],
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
  ['http_status', 'int'],
  ['request', 'jsonb'],
  ['response_excerpt', 'text'],
  ['duration_ms', 'int'],
] as const

/**
 * Everything a group's decisions change, as parts of one statement: each lead's facts, the
 * sold leads in their schema, the sales, the attempts opened and closed, the ledger, the
 * audit trails, and `match.found` with its deliveries for what sold by webhook. Cap counters
 * are written before these by the caller (their answer says whether the decisions hold).
 */
export function saleWrites(
  decisions: Decision[],
  context: {
    heads: Map<string, ChainHead>
    endpoints: SubscribedEndpoint[]
    audit: AuditChainService
    outbox: OutboxService
  }
): Part[] {
  if (decisions.length === 0) return []
  const facts: Record<string, unknown>[] = []
  const newlyMatched: { lead_id: string; at: Date }[] = []
  const salesRows: Record<string, unknown>[] = []
  const attemptRows: Record<string, unknown>[] = []
  const closedRows: Record<string, unknown>[] = []
  const ledgerRows: ReturnType<typeof saleMovement> = []
  const trails: Parameters<AuditChainService['extendTrailInserts']>[0] = []
  const events: Parameters<OutboxService['stage']>[0] = []

  for (const decision of decisions) {
    const { fact, now } = decision.task
    const sales = salesOf(decision)
    const soldEver = decision.previouslySold || sales.length > 0
    const done = decision.walk.done
    facts.push({
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
      sale_status: done ? (soldEver ? 'sold' : 'unsold') : 'selling',
      started: done ? null : decision.runStartedAt,
      lease: decision.leaseUntil,
      attempts_added: sales.filter((sale) => sale.webhookRule).length + (decision.offer ? 1 : 0),
    })
    if (sales.length > 0 && !decision.previouslySold) {
      newlyMatched.push({ lead_id: fact.lead_id, at: now })
    }
    for (const closed of decision.closed) {
      closedRows.push({
        id: closed.attemptId,
        outcome: closed.answer.outcome,
        reason: closed.answer.reason?.slice(0, 200) ?? null,
        buyer_lead_id: closed.answer.buyerLeadId?.slice(0, 200) ?? null,
        answered_price_cents: closed.answer.priceCents,
        http_status: closed.answer.httpStatus,
        request: closed.answer.request === null ? null : JSON.stringify(closed.answer.request),
        response_excerpt: closed.answer.responseExcerpt,
        duration_ms: closed.answer.durationMs,
      })
    }
    const attempt = (row: {
      id: string
      rule: { id: string; buyerId: string; destinationId: string | null }
      kind: DestinationKind
      outcome: string | null
      price: number
      payout: number
      currency: string
      exclusive: boolean
      caps: unknown
      duration: number | null
    }) =>
      attemptRows.push({
        id: row.id,
        lead_id: fact.lead_id,
        routing_rule_id: row.rule.id,
        buyer_id: row.rule.buyerId,
        destination_id: row.rule.destinationId,
        destination_kind: row.kind,
        kind: 'post',
        outcome: row.outcome,
        reason: null,
        price_cents: row.price,
        payout_cents: row.payout,
        currency: row.currency,
        exclusive: row.exclusive,
        caps: JSON.stringify(row.caps),
        started_at: now,
        duration_ms: row.duration,
      })
    decision.walk.sold.forEach((sold, index) => {
      const sale = sales.filter((each) => each.webhookRule)[index]
      attempt({
        id: sale.attemptId,
        rule: sold.rule,
        kind: 'webhook',
        outcome: 'accepted',
        price: sold.rule.priceCents,
        payout: sold.rule.payoutCents,
        currency: sold.rule.currency,
        exclusive: sold.exclusive,
        caps: sold.units,
        duration: 0,
      })
    })
    if (decision.offer && decision.walk.offer) {
      attempt({
        id: decision.offer.attemptId,
        rule: decision.walk.offer.rule,
        kind: decision.offer.destinationKind,
        outcome: null,
        price: decision.offer.priceCents,
        payout: decision.offer.payoutCents,
        currency: decision.offer.currency,
        exclusive: decision.offer.exclusive,
        caps: decision.walk.offer.units,
        duration: null,
      })
    }
    if (sales.length === 0) continue

    for (const sale of sales) {
      salesRows.push({
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
      })
      // The sale is booked with the match, pending until the buyer's return window closes.
      ledgerRows.push(
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
      if (sale.webhookRule) {
        // Only the buyer's endpoints get this event: it carries the contact and the price, so no publisher id.
        events.push({
          type: 'match.found',
          publisherId: null,
          buyerId: sale.buyerId,
          leadId: fact.lead_id,
          environment: fact.environment,
          data: matchFoundData(decision.lead, sale.webhookRule, fact.label_slug ?? null, now),
        })
      }
    }
    trails.push({
      head: context.heads.get(fact.lead_id)!,
      input: {
        publisherId: fact.publisher_id,
        leadId: fact.lead_id,
        environment: fact.environment,
        entries: sales.map((sale, index) => ({
          event: 'lead.delivered',
          actor: `rule:${sale.ruleId}`,
          statusFrom: index === 0 && !decision.previouslySold ? 'accepted' : 'matched',
          statusTo: 'matched',
        })),
      },
    })
  }

  const parts: Part[] = [factsUpdate(facts)]
  if (closedRows.length > 0) parts.push(attemptsClose(closedRows))
  if (attemptRows.length > 0) parts.push(insertRows('sale_attempts', ATTEMPT_COLUMNS, attemptRows))
  if (newlyMatched.length > 0) {
    const sold = rowsOf(
      [
        ['lead_id', 'uuid'],
        ['at', 'timestamptz'],
      ],
      newlyMatched
    )
    parts.push(
      rawPart(
        `UPDATE leads l SET status = 'matched', updated_at = v.at FROM ${sold.from} WHERE l.id = v.lead_id`,
        sold.bindings
      )
    )
  }
  if (salesRows.length > 0) parts.push(insertRows('public.sales', SALE_COLUMNS, salesRows))
  if (ledgerRows.length > 0) parts.push(ledgerInsert(ledgerRows))
  if (trails.length > 0) parts.push(...context.audit.extendTrailInserts(trails).parts)
  if (events.length > 0) {
    const at = new Date(Math.max(...decisions.map(({ task }) => task.now.getTime())))
    parts.push(...context.outbox.writes(context.outbox.stage(events, at), context.endpoints))
  }
  return parts
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
       http_status = v.http_status, request = v.request, response_excerpt = v.response_excerpt,
       duration_ms = v.duration_ms
     FROM ${values.from} WHERE a.id = v.id`,
    values.bindings
  )
}
