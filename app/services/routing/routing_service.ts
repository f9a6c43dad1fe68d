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
import { matchFoundData } from '#services/routing/match_event'
import { ledgerInsert, saleMovement } from '#services/money/ledger'
import {
  type RoutableLead,
  rankCandidates,
  screen,
  type UnsoldReason,
} from '#services/routing/selection'
import { GroupCommit } from '#services/sql/group_commit'
import { prepared } from '#services/sql/prepared'
import { type Part, insertTogether, rawPart, rowsOf } from '#services/sql/insert_together'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import routingConfig from '#config/routing'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'
import type { Environment } from '#auth/principal'

export type RoutingOutcome =
  | { outcome: 'matched'; leadId: string; ruleId: string; buyerId: string }
  | { outcome: 'unsold'; leadId: string; reason: UnsoldReason }
  | { outcome: 'skipped'; leadId: string; reason: 'unknown' | 'not_accepted' }

export type RouteOptions = {
  /** The routing moment: schedules, cap periods and timestamps read it (tests move it). */
  now?: Date
  /** Uniform [0, 1) source for the weighted choice among equal priorities. */
  random?: () => number
}

type LeadFact = {
  lead_id: string
  environment: Environment
  status: string
  buyer_id: string | null
  publisher_id: string
  label_id: string | null
  schema_name: string
  country: string
  label_slug: string | null
  rules_version: string
}

/** A lead waiting for its publisher's next routing transaction. */
type Offer = { fact: LeadFact; rules: ActiveRule[]; now: Date; random: () => number }
type StoredLead = Parameters<typeof matchFoundData>[0] & { status: string }
type Match = { offer: Offer; lead: StoredLead; rule: ActiveRule }
type Unsold = { offer: Offer; reason: UnsoldReason }

/** Facts of leads asked for together are read in one query. */
const lookups = new GroupCommit<string, LeadFact | undefined>({ maxSize: 64, maxInFlight: 1 })
/** Leads of one publisher routed together share one transaction (group commit). */
const groups = new GroupCommit<Offer, RoutingOutcome>(routingConfig.groupCommit)
/**
 * Times a group decides on counts read without a lock before it locks them:
 * each retry means a concurrent router used up a cap it counted on, so after
 * these the group holds its counters and cannot lose again.
 */
const UNLOCKED_ATTEMPTS = 3

/**
 * Sells one accepted lead to one buyer (exclusive delivery): a live lead by
 * the live rules, a sandbox lead by the sandbox's (docs/sandbox.md), never
 * across; its audit entry, its match.found and the endpoints that hear it
 * are of the lead's environment. Safe to run twice for a lead, or for many
 * leads at once: the lead row is locked for the decision and only an
 * `accepted` lead is routed. Leads of one publisher that arrive while its
 * routing transaction is open are decided and written together by the next
 * one, each with its own outcome.
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
    // A lead meets its own environment's rules only: sandbox and live never cross.
    const book = await this.book.current(fact.rules_version)
    const offer: Offer = {
      fact,
      rules: book[fact.environment],
      now: options.now ?? new Date(),
      random: options.random ?? Math.random,
    }
    return groups.add(fact.schema_name, offer, (offers) =>
      this.routeGroup(fact.schema_name, offers)
    )
  }

  /** One publisher's offers, decided again from the start when a concurrent router took their caps. */
  private async routeGroup(schemaName: string, offers: Offer[]) {
    for (let attempt = 1; ; attempt++) {
      const lockCaps = attempt > UNLOCKED_ATTEMPTS
      try {
        return await this.tenancy.runEntered(
          { schemaName },
          (trx, schema) => lockLeads(trx, schema, offers),
          (trx, locked) => this.decide(trx, offers, locked.rows, lockCaps)
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
                p.schema_name, p.country, l.slug AS label_slug, ${RULES_VERSION_SQL} AS rules_version
           FROM public.lead_facts f JOIN public.publishers p ON p.id = f.publisher_id
           LEFT JOIN public.labels l ON l.id = f.label_id
          WHERE f.lead_id = ANY(?::uuid[])`,
        [leadIds]
      ),
      'routing_lead_facts'
    )
    const byId = new Map<string, LeadFact>(result.rows.map((row: LeadFact) => [row.lead_id, row]))
    return leadIds.map((id) => byId.get(id))
  }

  /** One publisher's offers in its tenant transaction, their leads locked: read caps, choose, write. */
  private async decide(
    trx: TransactionClientContract,
    offers: Offer[],
    locked: Record<string, any>[],
    lockCaps: boolean
  ) {
    const stored = new Map<string, StoredLead>(locked.map((row: any) => [row.id, row]))
    const heads = new Map<string, ChainHead>(locked.map((row: any) => [row.id, chainHeadOf(row)]))

    const ranked = offers.map((offer) => {
      const lead = stored.get(offer.fact.lead_id)
      // Gone, sold meanwhile, twice in this group, or consent withdrawn: not routed.
      if (!lead || lead.status !== 'accepted' || lead.consent?.revoked_at) return null
      stored.delete(offer.fact.lead_id)
      const { eligible, reason } = screen(offer.rules, routable(offer.fact, lead), offer.now)
      return { offer, lead, reason, candidates: rankCandidates(eligible, offer.random) }
    })
    // The endpoints of every buyer the group might sell to, read with the cap counters: its match.found
    // deliveries are then written with the match, one round trip fewer.
    // A group may hold a publisher's live and sandbox leads; each rule names its environment's endpoints.
    const scopes = new Map<
      string,
      { publisherId: null; buyerId: string; environment: Environment }
    >()
    for (const rule of ranked.flatMap((entry) => entry?.candidates ?? [])) {
      scopes.set(`${rule.buyerId}|${rule.environment}`, {
        publisherId: null,
        buyerId: rule.buyerId,
        environment: rule.environment,
      })
    }
    const endpointScopes = [...scopes.values()]
    // Past the first uncapped candidate a lead never reaches: its later rules' counters are not needed.
    const { ledger: caps, rows } = await CapLedger.read(
      trx,
      ranked.flatMap((entry) => {
        if (!entry) return []
        const reach = entry.candidates.findIndex((rule) => !isCapped(rule))
        const needed = reach === -1 ? entry.candidates : entry.candidates.slice(0, reach)
        return needed.map((rule) => ({ rule, at: entry.offer.now }))
      }),
      endpointScopes.length ? [this.outbox.endpointsFor(endpointScopes)] : [],
      { lock: lockCaps }
    )
    const endpoints = (rows[0] ?? []) as SubscribedEndpoint[]

    const matches: Match[] = []
    const unsold: Unsold[] = []
    const outcomes = ranked.map((entry, index): RoutingOutcome => {
      const leadId = offers[index].fact.lead_id
      if (!entry) return { outcome: 'skipped', leadId, reason: 'not_accepted' }
      const rule = entry.candidates.find((candidate) => caps.take(candidate, entry.offer.now))
      if (!rule) {
        unsold.push({ offer: entry.offer, reason: entry.reason })
        return { outcome: 'unsold', leadId, reason: entry.reason }
      }
      matches.push({ offer: entry.offer, lead: entry.lead, rule })
      return { outcome: 'matched', leadId, ruleId: rule.id, buyerId: rule.buyerId }
    })
    await this.record(trx, { matches, unsold, heads, endpoints, caps })
    return outcomes
  }

  /**
   * Everything the decisions change, in the routing transaction: first the
   * caps' units, whose answer says whether the decisions still hold (if not,
   * CapConflict, before anything else is written), then in one statement
   * leads, facts, audit trails, match.found events and their deliveries to
   * the buyers' endpoints.
   */
  private async record(
    trx: TransactionClientContract,
    decided: {
      matches: Match[]
      unsold: Unsold[]
      heads: Map<string, ChainHead>
      endpoints: SubscribedEndpoint[]
      caps: CapLedger
    }
  ) {
    const { matches, unsold, heads, endpoints, caps } = decided
    const increments = caps.increments()
    if (increments) caps.confirm(await insertTogether(trx, [increments]))
    const parts: Part[] = []
    if (unsold.length > 0) parts.push(unsoldFacts(unsold))
    if (matches.length === 0) {
      if (parts.length > 0) await insertTogether(trx, parts)
      return
    }
    parts.push(...matchedLeadsAndFacts(matches))
    const trails = this.audit.extendTrailInserts(
      matches.map(({ offer, rule }) => ({
        head: heads.get(offer.fact.lead_id)!,
        input: {
          publisherId: offer.fact.publisher_id,
          leadId: offer.fact.lead_id,
          environment: offer.fact.environment,
          entries: [
            {
              event: 'lead.delivered',
              actor: `rule:${rule.id}`,
              statusFrom: 'accepted',
              statusTo: 'matched',
            },
          ],
        },
      }))
    )
    parts.push(...trails.parts)
    // Only the buyer's endpoints get this event: it carries the contact and the price, so no publisher id.
    const now = new Date(Math.max(...matches.map(({ offer }) => offer.now.getTime())))
    const events = this.outbox.stage(
      matches.map(({ offer, lead, rule }) => ({
        type: 'match.found',
        publisherId: null,
        buyerId: rule.buyerId,
        leadId: offer.fact.lead_id,
        environment: offer.fact.environment,
        data: matchFoundData(lead, rule, offer.fact.label_slug ?? null, offer.now),
      })),
      now
    )
    await insertTogether(trx, [...parts, ...this.outbox.writes(events, endpoints)])
  }
}

/**
 * The leads and their chain heads in one statement, locked in lead order
 * (each lead before its head). The same statement enters the publisher's
 * schema for the rest of the transaction, as SET LOCAL would, one round
 * trip fewer. With no lead left to lock nothing is entered, and nothing
 * after it touches the publisher's own tables: unsold facts and cap
 * counters live in public.
 */
function lockLeads(trx: TransactionClientContract, schemaName: string, offers: Offer[]) {
  const ids = [...new Set(offers.map((offer) => offer.fact.lead_id))].sort()
  const schema = quoteIdent(schemaName)
  return trx.rawQuery(
    `SELECT set_config('search_path', ?, true) AS entered_path, l.*, ${CHAIN_HEAD_COLUMNS}
       FROM ${schema}.leads l JOIN audit.chain_heads h ON h.lead_id = l.id
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

/** The sold leads in their schema and their facts in public, as two UPDATEs. */
function matchedLeadsAndFacts(matches: Match[]): Part[] {
  const sold = rowsOf(
    [
      ['lead_id', 'uuid'],
      ['buyer_id', 'uuid'],
      ['rule_id', 'uuid'],
      ['price_cents', 'int'],
      ['payout_cents', 'int'],
      ['currency', 'text'],
      ['window_hours', 'int'],
      ['at', 'timestamptz'],
    ],
    matches.map(({ offer, rule }) => ({
      lead_id: offer.fact.lead_id,
      buyer_id: rule.buyerId,
      rule_id: rule.id,
      price_cents: rule.priceCents,
      payout_cents: rule.payoutCents,
      currency: rule.currency,
      window_hours: rule.returnWindowHours,
      at: offer.now,
    }))
  )
  // The sale is booked with the match, pending until the buyer's return window closes.
  const rows = matches.flatMap(({ offer, rule }) =>
    saleMovement({
      leadId: offer.fact.lead_id,
      publisherId: offer.fact.publisher_id,
      buyerId: rule.buyerId,
      priceCents: rule.priceCents,
      payoutCents: rule.payoutCents,
      currency: rule.currency,
      environment: offer.fact.environment,
    })
  )
  const ledger = rows.length ? ledgerInsert(rows) : null
  return [
    rawPart(
      `UPDATE leads l SET status = 'matched', updated_at = v.at FROM ${sold.from} WHERE l.id = v.lead_id`,
      sold.bindings
    ),
    rawPart(
      `UPDATE public.lead_facts f SET status = 'matched', buyer_id = v.buyer_id,
         routing_rule_id = v.rule_id, price_cents = v.price_cents, payout_cents = v.payout_cents,
         currency = v.currency, matched_at = v.at, routed_at = v.at, unsold_reason = NULL,
         settlement = 'pending', settles_at = v.at + make_interval(hours => v.window_hours),
         updated_at = v.at
       FROM ${sold.from} WHERE f.lead_id = v.lead_id`,
      sold.bindings
    ),
    ...(ledger ? [ledger] : []),
  ]
}

/** Why each unsold lead found no buyer, and when it was tried (the sweeper offers it again later). */
function unsoldFacts(unsold: Unsold[]): Part {
  const tried = rowsOf(
    [
      ['lead_id', 'uuid'],
      ['reason', 'text'],
      ['at', 'timestamptz'],
    ],
    unsold.map(({ offer, reason }) => ({ lead_id: offer.fact.lead_id, reason, at: offer.now }))
  )
  return rawPart(
    `UPDATE public.lead_facts f SET unsold_reason = v.reason, routed_at = v.at, updated_at = v.at
     FROM ${tried.from} WHERE f.lead_id = v.lead_id`,
    tried.bindings
  )
}
