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
import { CapConflict, CapLedger, isCapped, type ReservedUnits } from '#services/routing/caps'
import { type RoutableLead, rankCandidates, screen } from '#services/routing/selection'
import { type PastAttempt, walkSale } from '#services/routing/sale_walk'
import { type SaleSettingsInput, saleSettings } from '#services/routing/sale_settings'
import {
  type Decision,
  type LeadFact,
  type PostAnswer,
  type RoutingOutcome,
  type SaleOffer,
  type StoredLead,
  offerOf,
  saleWrites,
} from '#services/routing/sale_records'
import { GroupCommit } from '#services/sql/group_commit'
import { prepared } from '#services/sql/prepared'
import { insertTogether } from '#services/sql/insert_together'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import routingConfig from '#config/routing'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'
import type { Environment } from '#auth/principal'

export type { RoutingOutcome, SaleOffer, PostAnswer } from '#services/routing/sale_records'

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
  answer?: { offer: SaleOffer; result: PostAnswer }
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

  private async enqueue(fact: LeadFact, options: RouteOptions, answer?: Task['answer']) {
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
    const attempts = await this.attemptsOf(trx, tasks)

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
    const { ledger: caps, rows } = await CapLedger.read(
      trx,
      counted,
      endpointScopes.length ? [this.outbox.endpointsFor(endpointScopes)] : [],
      { lock: lockCaps }
    )
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
      const closed = closeInFlight(task, past, caps)
      const runStartedAt = entry.lead.fact_sale_started_at
        ? new Date(entry.lead.fact_sale_started_at)
        : null
      const walk = walkSale({
        candidates: entry.candidates!,
        attempts: past.map(pastAttempt),
        runStartedAt,
        settings: saleSettings(task.fact.label_sale as SaleSettingsInput | null),
        caps,
        at: task.now,
        screenReason: entry.reason!,
      })
      const decision: Decision = {
        task: { fact: task.fact, now: task.now },
        lead: entry.lead,
        walk,
        closed,
        offer: offerOf(task.fact, entry.lead, walk, task.now),
        runStartedAt: walk.done ? null : (runStartedAt ?? task.now),
        leaseUntil: walk.offer
          ? new Date(task.now.getTime() + walk.offer.rule.destinationTimeoutMs + LEASE_MARGIN_MS)
          : null,
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
    if (writes.length > 0) await insertTogether(trx, writes)
    return outcomes
  }

  /** The earlier attempts of the leads that have some (a count in their facts says which). */
  private async attemptsOf(trx: TransactionClientContract, tasks: Task[]) {
    const ids = tasks
      .filter((task) => task.answer || task.fact.sale_attempts > 0)
      .map((task) => task.fact.lead_id)
    const byLead = new Map<string, AttemptRow[]>()
    if (ids.length === 0) return byLead
    const result = await trx.rawQuery(
      `SELECT id, lead_id, routing_rule_id, buyer_id, outcome, exclusive, caps, started_at
         FROM sale_attempts WHERE lead_id = ANY(?::uuid[]) ORDER BY started_at, id`,
      [ids]
    )
    for (const row of result.rows as AttemptRow[]) {
      byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), row])
    }
    return byLead
  }
}

type AttemptRow = {
  id: string
  lead_id: string
  routing_rule_id: string | null
  buyer_id: string
  outcome: string | null
  exclusive: boolean
  caps: ReservedUnits
  started_at: Date
}

/**
 * Whether a task may go on: a post's answer needs its attempt still in flight (a lapsed lease
 * let another worker close it); a new sale needs an accepted, unsold lead with consent, and no
 * post of it in flight.
 */
function gate(task: Task, lead: StoredLead, past: AttemptRow[]) {
  if (task.answer) {
    const open = past.find((attempt) => attempt.id === task.answer!.offer.attemptId)
    return open && open.outcome === null ? null : ('not_accepted' as const)
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
 * Closes the lead's posts in flight: the one whose answer this task brings, with that answer,
 * and any other whose lease lapsed (its worker died) as an `error`. A post the buyer did not
 * take gives its cap units back. The attempt rows are updated in memory too, so the walk reads
 * them closed.
 */
function closeInFlight(task: Task, past: AttemptRow[], caps: CapLedger) {
  const closed: Decision['closed'] = []
  for (const attempt of past) {
    if (attempt.outcome !== null) continue
    const answered = task.answer?.offer.attemptId === attempt.id ? task.answer : null
    const answer =
      answered?.result ??
      ({
        outcome: 'error',
        reason: 'interrupted',
        buyerLeadId: null,
        priceCents: null,
        httpStatus: null,
        durationMs: Math.max(0, task.now.getTime() - new Date(attempt.started_at).getTime()),
        request: null,
        responseExcerpt: null,
      } satisfies PostAnswer)
    attempt.outcome = answer.outcome
    if (answer.outcome !== 'accepted') caps.release(attempt.caps)
    closed.push({
      attemptId: attempt.id,
      answer,
      buyerId: attempt.buyer_id,
      ruleId: attempt.routing_rule_id,
      offer: answered?.offer ?? null,
    })
  }
  return closed
}

function pastAttempt(row: AttemptRow): PastAttempt {
  return {
    id: row.id,
    routingRuleId: row.routing_rule_id,
    buyerId: row.buyer_id,
    outcome: row.outcome,
    exclusive: row.exclusive,
    startedAt: new Date(row.started_at),
  }
}

function outcomeOf(decision: Decision): RoutingOutcome {
  const leadId = decision.task.fact.lead_id
  const { walk } = decision
  const accepted = decision.closed.find((closed) => closed.answer.outcome === 'accepted')
  if (walk.offer) return { outcome: 'offer', leadId, offer: decision.offer! }
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
            f.sale_lease_until AS fact_sale_lease_until
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
