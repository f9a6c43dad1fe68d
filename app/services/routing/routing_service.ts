import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import TenancyService, { quoteIdent } from '#services/platform/tenancy_service'
import OutboxService from '#services/webhooks/outbox_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  type ChainHead,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import RoutingRuleBook, { RULES_VERSION_SQL, type ActiveRule } from '#services/routing/rule_book'
import { CapConflict, CapLedger, isCapped } from '#services/routing/caps'
import { FundsLedger } from '#services/routing/funds'
import { boughtBefore, withoutBoughtBefore } from '#services/routing/buyer_duplicates'
import { type RoutableLead, rankCandidates, screen } from '#services/routing/selection'
import { walkSale } from '#services/routing/sale_walk'
import { type SaleSettingsInput, saleSettings } from '#services/routing/sale_settings'
import { saleWrites } from '#services/routing/sale_records'
import { auctionOf, offerOf, offeredPayout } from '#services/routing/sale_offers'
import {
  type TaskAnswer,
  attemptsOf,
  auctionTranscript,
  closeInFlight,
  gate,
  pastAttempt,
} from '#services/routing/sale_progress'
import type {
  Decision,
  LeadFact,
  PingAnswer,
  PostAnswer,
  RoutingOutcome,
  SaleAuction,
  SaleOffer,
  StoredLead,
} from '#services/routing/sale_types'
import { GroupCommit } from '#services/sql/group_commit'
import { prepared } from '#services/sql/prepared'
import { insertTogether } from '#services/sql/insert_together'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import routingConfig from '#config/routing'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'
import type { Environment } from '#auth/principal'

export type {
  PingAnswer,
  PostAnswer,
  RoutingOutcome,
  SaleAuction,
  SaleOffer,
} from '#services/routing/sale_types'

export type RouteOptions = {
  /** The routing moment: schedules, cap periods and timestamps read it (tests move it). */
  now?: Date
  /** Uniform [0, 1) source for the weighted choice among equal priorities. */
  random?: () => number
}

/** A lead waiting for its publisher's next routing transaction: a new sale, or a post's answer. */
type Task = {
  fact: LeadFact
  rules: ActiveRule[]
  now: Date
  random: () => number
  answer?: TaskAnswer
}

/** A post in flight keeps its lead to itself this much past its own timeout. */
const LEASE_MARGIN_MS = 15_000

/** Facts of leads asked for together are read in one query. */
const lookups = new GroupCommit<string, LeadFact | undefined>({ maxSize: 64, maxInFlight: 1 })
/** Leads of one publisher routed together share one transaction (group commit). */
const groups = new GroupCommit<Task, RoutingOutcome>(routingConfig.groupCommit)
/**
 * Times a group decides on counts read without a lock before it locks them:
 * each retry means a concurrent router used up a cap it counted on, so after
 * these the group holds its counters and cannot lose again.
 */
const UNLOCKED_ATTEMPTS = 3

/**
 * Sells accepted leads (DESIGN §14, docs/selling.md): a live lead by the live rules, a sandbox
 * lead by the sandbox's (docs/sandbox.md), never across. `route` starts a lead's sale: it offers
 * the lead to its candidates in order, sells at once to a buyer that takes Leadgate's own
 * webhook, and stops at the first buyer whose own system must be called, with that post's cap
 * units reserved (`offer`). The caller posts after the commit and hands the answer to `settle`,
 * which records it and goes on: sold, fallen through to the next candidate, or unsold. Safe to
 * run twice for a lead, or for many leads at once: the lead row is locked for each decision,
 * only an `accepted` lead starts a sale, and a lead whose post is in flight is left alone
 * until its lease ends. Leads of one publisher that arrive while its routing transaction is
 * open are decided and written together by the next one, each with its own outcome.
 */
@inject()
export default class RoutingService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService,
    protected book: RoutingRuleBook
  ) {}

  async route(leadId: string, options: RouteOptions = {}): Promise<RoutingOutcome> {
    const fact = await lookups.add('facts', leadId, (ids) => this.facts(ids))
    if (!fact) return { outcome: 'skipped', leadId, reason: 'unknown' }
    if (fact.status !== 'accepted' || fact.buyer_id) {
      return { outcome: 'skipped', leadId, reason: 'not_accepted' }
    }
    return this.enqueue(fact, options)
  }

  /** Records what a buyer's system answered an offer, and goes on with the lead's sale. */
  async settle(
    offer: SaleOffer,
    result: PostAnswer,
    options: RouteOptions = {}
  ): Promise<RoutingOutcome> {
    const fact = await lookups.add('facts', offer.leadId, (ids) => this.facts(ids))
    if (!fact) return { outcome: 'skipped', leadId: offer.leadId, reason: 'unknown' }
    return this.enqueue(fact, options, { offer, result })
  }

  /** Records what the pinged buyers bid, and goes on with the lead's sale. */
  async settleAuction(
    auction: SaleAuction,
    pings: PingAnswer[],
    options: RouteOptions = {}
  ): Promise<RoutingOutcome> {
    const fact = await lookups.add('facts', auction.leadId, (ids) => this.facts(ids))
    if (!fact) return { outcome: 'skipped', leadId: auction.leadId, reason: 'unknown' }
    return this.enqueue(fact, options, { auction, pings })
  }

  private async enqueue(fact: LeadFact, options: RouteOptions, answer?: TaskAnswer) {
    // A lead meets its own environment's rules only: sandbox and live never cross.
    const book = await this.book.current(fact.rules_version)
    const task: Task = {
      fact,
      rules: book[fact.environment],
      now: options.now ?? new Date(),
      random: options.random ?? Math.random,
      answer,
    }
    return groups.add(fact.schema_name, task, (tasks) => this.routeGroup(fact.schema_name, tasks))
  }

  /** One publisher's tasks, decided again from the start when a concurrent router took their caps. */
  private async routeGroup(schemaName: string, tasks: Task[]) {
    for (let attempt = 1; ; attempt++) {
      const lockCaps = attempt > UNLOCKED_ATTEMPTS
      try {
        return await this.tenancy.runEntered(
          { schemaName },
          (trx, schema) => lockLeads(trx, schema, tasks),
          (trx, locked) => this.decide(trx, tasks, locked.rows, lockCaps)
        )
      } catch (error) {
        if (!(error instanceof CapConflict) || lockCaps) throw error
      }
    }
  }

  private async facts(leadIds: string[]) {
    const result = await prepared(
      db.connection().rawQuery(
        `SELECT f.lead_id, f.environment, f.status, f.buyer_id, f.publisher_id, f.label_id,
                f.sale_attempts, p.schema_name, p.country, l.slug AS label_slug, l.sale AS label_sale,
                ${RULES_VERSION_SQL} AS rules_version
           FROM public.lead_facts f JOIN public.publishers p ON p.id = f.publisher_id
           LEFT JOIN public.labels l ON l.id = f.label_id
          WHERE f.lead_id = ANY(?::uuid[])`,
        [leadIds]
      ),
      'routing_lead_facts_v2'
    )
    const byId = new Map<string, LeadFact>(result.rows.map((row: LeadFact) => [row.lead_id, row]))
    return leadIds.map((id) => byId.get(id))
  }

  /** One publisher's tasks in its tenant transaction, their leads locked: read caps, walk, write. */
  private async decide(
    trx: TransactionClientContract,
    tasks: Task[],
    locked: Record<string, any>[],
    lockCaps: boolean
  ) {
    const stored = new Map<string, StoredLead>(locked.map((row: any) => [row.id, row]))
    const heads = new Map<string, ChainHead>(locked.map((row: any) => [row.id, chainHeadOf(row)]))
    const attempts = await attemptsOf(trx, tasks)

    // A post's answer goes first: a new sale of the same lead in the group then finds it selling.
    const order = tasks
      .map((task, index) => ({ task, index }))
      .sort((a, b) => Number(Boolean(b.task.answer)) - Number(Boolean(a.task.answer)))
    const taken = new Set<string>()
    const entries = order.map(({ task, index }) => {
      const leadId = task.fact.lead_id
      const lead = stored.get(leadId)
      if (!lead || taken.has(leadId))
        return { index, task, lead: null, skip: 'not_accepted' as const }
      const skip = gate(task, lead, attempts.get(leadId) ?? [])
      if (skip) return { index, task, lead: null, skip }
      taken.add(leadId)
      const { eligible, reason } = screen(task.rules, routable(task.fact, lead), task.now)
      return {
        index,
        task,
        lead,
        skip: null,
        reason,
        candidates: rankCandidates(eligible, task.random),
      }
    })

    // The endpoints of every buyer the group might sell to by webhook, read with the cap counters:
    // its match.found deliveries are then written with the match, one round trip fewer.
    const scopes = new Map<
      string,
      { publisherId: null; buyerId: string; environment: Environment }
    >()
    const counted: { rule: ActiveRule; at: Date }[] = []
    for (const entry of entries) {
      for (const rule of entry.candidates ?? []) {
        if (rule.destinationKind === 'webhook') {
          scopes.set(`${rule.buyerId}|${rule.environment}`, {
            publisherId: null,
            buyerId: rule.buyerId,
            environment: rule.environment,
          })
        }
        if (isCapped(rule)) counted.push({ rule, at: entry.task.now })
      }
    }
    const endpointScopes = [...scopes.values()]
    // The funds of every buyer the group might offer to, and of those whose offers it may close.
    const buyers = new Set<string>()
    for (const entry of entries) for (const rule of entry.candidates ?? []) buyers.add(rule.buyerId)
    for (const past of attempts.values()) {
      for (const attempt of past) if (attempt.outcome === null) buyers.add(attempt.buyer_id)
    }
    const bought = boughtBefore(entries, tasks[0]?.now ?? new Date())
    const { ledger: caps, rows } = await CapLedger.read(
      trx,
      counted,
      [
        ...(endpointScopes.length ? [this.outbox.endpointsFor(endpointScopes)] : []),
        ...(bought ? [bought] : []),
        FundsLedger.query([...buyers], { lock: lockCaps }),
      ],
      { lock: lockCaps }
    )
    const funds = FundsLedger.of(rows.pop() ?? [])
    if (bought) withoutBoughtBefore(entries, rows.pop() ?? [])
    const endpoints = (rows[0] ?? []) as SubscribedEndpoint[]

    const decisions: Decision[] = []
    const outcomes: RoutingOutcome[] = new Array(tasks.length)
    for (const entry of entries) {
      const { task, index } = entry
      const leadId = task.fact.lead_id
      if (!entry.lead || entry.skip) {
        outcomes[index] = { outcome: 'skipped', leadId, reason: entry.skip ?? 'not_accepted' }
        continue
      }
      const past = attempts.get(leadId) ?? []
      const previouslySold = past.some((attempt) => attempt.outcome === 'accepted')
      const closed = closeInFlight(task, past, caps, funds)
      const runStartedAt = entry.lead.fact_sale_started_at
        ? new Date(entry.lead.fact_sale_started_at)
        : null
      const settings = saleSettings(task.fact.label_sale as SaleSettingsInput | null)
      const walk = walkSale({
        candidates: entry.candidates!,
        attempts: past.map(pastAttempt),
        runStartedAt,
        settings,
        caps,
        funds,
        at: task.now,
        screenReason: entry.reason!,
      })
      const soldNow =
        walk.sold.length > 0 || closed.some(({ post }) => post?.outcome === 'accepted')
      const offered = offeredPayout(entry.lead, previouslySold || soldNow)
      const offer = offerOf(task.fact, entry.lead, walk.offer, task.now, offered)
      const auction = auctionOf(task.fact, entry.lead, walk.auction?.rules, settings, task.now)
      const lease = offer ? offer.timeoutMs : auction ? settings.tmaxMs : null
      const decision: Decision = {
        task: { fact: task.fact, now: task.now },
        lead: entry.lead,
        walk,
        closed,
        offer,
        auction,
        transcript: walk.done
          ? auctionTranscript({
              leadId,
              runStartedAt,
              past,
              fixed: entry
                .candidates!.filter((rule) => rule.mode !== 'ping_post')
                .map((rule) => ({ buyerId: rule.buyerId, priceCents: rule.priceCents })),
              winner: winnerOf(walk, closed),
              settings,
              at: task.now,
            })
          : null,
        runStartedAt: walk.done ? null : (runStartedAt ?? task.now),
        leaseUntil: lease === null ? null : new Date(task.now.getTime() + lease + LEASE_MARGIN_MS),
        previouslySold,
      }
      decisions.push(decision)
      outcomes[index] = outcomeOf(decision)
    }
    const writes = saleWrites(decisions, {
      heads,
      endpoints,
      audit: this.audit,
      outbox: this.outbox,
    })
    const increments = caps.increments()
    if (increments) caps.confirm(await insertTogether(trx, [increments]))
    await funds.write(trx)
    if (writes.length > 0) await insertTogether(trx, writes)
    return outcomes
  }
}

/** Who took the lead in this step, and what it pays: the sale an auction's transcript names. */
function winnerOf(walk: Decision['walk'], closed: Decision['closed']) {
  const bySale = walk.sold[0]
  if (bySale) return { buyerId: bySale.rule.buyerId, priceCents: bySale.priceCents }
  const accepted = closed.find((attempt) => attempt.post?.outcome === 'accepted' && attempt.offer)
  return accepted
    ? { buyerId: accepted.offer!.buyerId, priceCents: accepted.offer!.priceCents }
    : null
}

function outcomeOf(decision: Decision): RoutingOutcome {
  const leadId = decision.task.fact.lead_id
  const { walk } = decision
  const accepted = decision.closed.find((closed) => closed.post?.outcome === 'accepted')
  if (decision.offer) return { outcome: 'offer', leadId, offer: decision.offer }
  if (decision.auction) return { outcome: 'auction', leadId, auction: decision.auction }
  if (walk.done?.unsold) return { outcome: 'unsold', leadId, reason: walk.done.unsold }
  const first = walk.sold[0]
  if (first) {
    return {
      outcome: 'matched',
      leadId,
      ruleId: first.rule.id,
      buyerId: first.rule.buyerId,
    }
  }
  return {
    outcome: 'matched',
    leadId,
    ruleId: accepted?.ruleId ?? null,
    buyerId: accepted?.buyerId ?? null,
  }
}

/**
 * The leads, their chain heads and their sale state in one statement, locked in lead order
 * (each lead before its head). The same statement enters the publisher's schema for the rest
 * of the transaction, as SET LOCAL would, one round trip fewer. With no lead left to lock
 * nothing is entered, and nothing after it touches the publisher's own tables: unsold facts
 * and cap counters live in public.
 */
function lockLeads(trx: TransactionClientContract, schemaName: string, tasks: Task[]) {
  const ids = [...new Set(tasks.map((task) => task.fact.lead_id))].sort()
  const schema = quoteIdent(schemaName)
  return trx.rawQuery(
    `SELECT set_config('search_path', ?, true) AS entered_path, l.*, ${CHAIN_HEAD_COLUMNS},
            f.buyer_id AS fact_buyer_id, f.sale_started_at AS fact_sale_started_at,
            f.sale_lease_until AS fact_sale_lease_until,
            f.offered_payout_cents AS fact_offered_payout_cents
       FROM ${schema}.leads l JOIN audit.chain_heads h ON h.lead_id = l.id
       JOIN public.lead_facts f ON f.lead_id = l.id
      WHERE l.id = ANY(?::uuid[]) ORDER BY l.id FOR UPDATE OF l, h`,
    [`${schema}, public`, ids]
  )
}

function routable(fact: LeadFact, lead: StoredLead): RoutableLead {
  const input: LeadInput = {
    publisher: '',
    contact: lead.contact,
    provenance: lead.provenance,
    consent: lead.consent,
    attributes: lead.attributes,
  }
  return {
    publisherId: fact.publisher_id,
    labelId: fact.label_id,
    input,
    normalised: normaliseLead(input, fact.country),
  }
}
