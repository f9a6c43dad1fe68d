import db from '@adonisjs/lucid/services/db'
import type { Caps, SaleMode, WeeklySchedule } from '#models/routing_rule'
import type { DestinationKind } from '#models/destination'
import type { AudienceCriterion } from '#services/quality/quality_rules'
import type { Environment } from '#auth/principal'

/** A rule as routing reads it: enabled, of an active buyer. */
export type ActiveRule = {
  id: string
  buyerId: string
  /** The leads it sells: live ones, or the sandbox's; a lead never meets a rule of the other. */
  environment: Environment
  labelIds: string[]
  publisherIds: string[]
  criteria: AudienceCriterion[]
  /** The buyer's own filters: a lead must meet them as well as `criteria`. */
  buyerCriteria: AudienceCriterion[]
  /** Where the sale goes: null is the buyer's `match.found` webhook (kind `webhook`). */
  destinationId: string | null
  destinationKind: DestinationKind
  /** How long a post to its destination may take (an http destination's own timeout). */
  destinationTimeoutMs: number
  mode: SaleMode
  exclusive: boolean
  reserveCents: number | null
  /** The buyer's window: it is not offered a consumer it bought within these days. */
  buyerDuplicateWindowDays: number | null
  payoutSharePercent: number | null
  priceCents: number
  payoutCents: number
  currency: string
  /** How long the buyer may return a lead sold by this rule (the rule's, else its buyer's). */
  returnWindowHours: number
  caps: Caps
  schedule: WeeklySchedule | null
  priority: number
  weight: number
  /** The later of the rule's and its buyer's last change. */
  changedAt: Date
}

/** A destination's post timeout when it names none (DESIGN §14: 10 s). */
export const DEFAULT_POST_TIMEOUT_MS = 10_000

/** The enabled rules, each environment's apart: a lead is offered only its own environment's. */
export type RuleSet = Record<Environment, ActiveRule[]>

type Snapshot = { version: string; rules: RuleSet }
let snapshot: Snapshot | null = null
let loading: { version: string; promise: Promise<Snapshot> } | null = null

/**
 * The version of the rule set: a counter that every change to a rule or a
 * buyer bumps (a statement trigger). A scalar subquery, so a caller can
 * select it alongside its own query and save a round trip.
 */
export const RULES_VERSION_SQL = `(SELECT generation || ':' || version FROM routing_book_version)`

/**
 * The enabled rules, kept in memory between routing jobs: at hundreds of
 * leads a second, reloading every rule for each lead would cost more than
 * the routing itself. Each call checks the version (one cheap query, or
 * none when the caller read it already) and reloads only on a change.
 */
export default class RoutingRuleBook {
  async current(version?: string): Promise<RuleSet> {
    version ??= await this.version()
    if (snapshot?.version === version) return snapshot.rules
    if (loading?.version !== version) {
      const promise = this.load(version)
      loading = { version, promise }
      promise.finally(() => loading?.promise === promise && (loading = null)).catch(() => {})
    }
    const loaded = await loading.promise
    snapshot = loaded
    return loaded.rules
  }

  private async version(): Promise<string> {
    const result = await db.rawQuery(`SELECT ${RULES_VERSION_SQL} AS version`)
    return result.rows[0].version
  }

  private async load(version: string): Promise<Snapshot> {
    const rows = await db
      .from('routing_rules as r')
      .join('buyers as b', 'b.id', 'r.buyer_id')
      .leftJoin('destinations as d', 'd.id', 'r.destination_id')
      .where('r.enabled', true)
      .where('b.status', 'active')
      // A rule whose destination is switched off sells nothing until it is switched on again.
      .where((destination) => destination.whereNull('d.id').orWhere('d.status', 'enabled'))
      .select(
        'r.*',
        db.raw(`coalesce(d.kind, 'webhook') AS destination_kind`),
        db.raw(`(d.config #>> '{http,timeout_ms}')::int AS destination_timeout_ms`),
        db.raw('greatest(r.updated_at, b.updated_at) AS changed_at'),
        db.raw('coalesce(r.return_window_hours, b.return_window_hours) AS window_hours'),
        db.raw('b.duplicate_window_days AS buyer_duplicate_window_days')
      )
      // A stable order (ids are time-ordered), so a seeded random source replays the same choices.
      .orderBy('r.id')
    const rules: RuleSet = { live: [], sandbox: [] }
    for (const row of rows) {
      rules[row.environment as Environment].push({
        id: row.id,
        buyerId: row.buyer_id,
        environment: row.environment,
        labelIds: row.label_ids ?? [],
        publisherIds: row.publisher_ids ?? [],
        criteria: row.criteria ?? [],
        buyerCriteria: row.buyer_criteria ?? [],
        destinationId: row.destination_id ?? null,
        destinationKind: row.destination_kind,
        destinationTimeoutMs: row.destination_timeout_ms ?? DEFAULT_POST_TIMEOUT_MS,
        mode: row.mode ?? 'fixed',
        exclusive: row.exclusive ?? true,
        reserveCents: row.reserve_cents ?? null,
        buyerDuplicateWindowDays: row.buyer_duplicate_window_days ?? null,
        payoutSharePercent: row.payout_share_percent ?? null,
        priceCents: row.price_cents,
        payoutCents: row.payout_cents,
        currency: row.currency,
        returnWindowHours: row.window_hours,
        caps: row.caps ?? {},
        schedule: row.schedule ?? null,
        priority: row.priority,
        weight: row.weight,
        changedAt: new Date(row.changed_at),
      })
    }
    return { version, rules }
  }
}
