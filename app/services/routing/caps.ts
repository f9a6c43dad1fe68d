import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import routingConfig from '#config/routing'
import type { ActiveRule } from '#services/routing/rule_book'
import { capPeriods, type CapPeriod } from '#services/routing/schedule'
import type { Caps } from '#models/routing_rule'
import {
  type Column,
  type Part,
  rawPart,
  rowsOf,
  selectTogether,
} from '#services/sql/insert_together'

const KEY_COLUMNS: Column[] = [
  ['rule_id', 'uuid'],
  ['period', 'text'],
]

type CappedRule = Pick<ActiveRule, 'id' | 'caps' | 'schedule'>

/** What a cap counts: matches in an hour, a day or a month, or cents sold in a day or a month. */
export type CapKind = 'hourly' | 'daily' | 'monthly' | 'daily_spend' | 'monthly_spend'
const CAP_KINDS: { kind: CapKind; setting: keyof Caps; period: 'hourly' | 'daily' | 'monthly' }[] =
  [
    { kind: 'hourly', setting: 'hourly', period: 'hourly' },
    { kind: 'daily', setting: 'daily', period: 'daily' },
    { kind: 'monthly', setting: 'monthly', period: 'monthly' },
    { kind: 'daily_spend', setting: 'daily_spend_cents', period: 'daily' },
    { kind: 'monthly_spend', setting: 'monthly_spend_cents', period: 'monthly' },
  ]
const isSpend = (kind: CapKind) => kind === 'daily_spend' || kind === 'monthly_spend'

type Limit = {
  key: string
  ruleId: string
  kind: CapKind
  period: CapPeriod
  cap: number
}

/** The cap units one post of a rule reserved: given back when the buyer does not take the lead. */
export type ReservedUnits = { rule_id: string; period: string; units: number }[]

/** A cap's day and month are the rule's own: its schedule's time zone, else the default. */
export function ruleZone(rule: Pick<ActiveRule, 'schedule'>) {
  return rule.schedule?.timezone ?? routingConfig.defaultTimezone
}

export function isCapped(rule: Pick<ActiveRule, 'caps'>) {
  return CAP_KINDS.some(({ setting }) => Boolean(rule.caps[setting]))
}

/** The counters one match of the rule at `at` counts against: one per cap it has. */
function limitsOf(rule: CappedRule, at: Date): Limit[] {
  if (!isCapped(rule)) return []
  const periods = capPeriods(ruleZone(rule), at)
  const limits: Limit[] = []
  for (const { kind, setting, period: name } of CAP_KINDS) {
    const cap = rule.caps[setting]
    if (!cap) continue
    const period = periods[name]
    // Spend counters live beside the count counters of the same period, under their own key.
    const key = isSpend(kind) ? `spend-${period.key}` : period.key
    limits.push({
      key: `${rule.id}|${key}`,
      ruleId: rule.id,
      kind,
      period: { ...period, key },
      cap,
    })
  }
  return limits
}

/** A concurrent router took the units a decision counted on: decide again, with fresh counts. */
export class CapConflict extends Error {
  constructor() {
    super('a cap counter was used up by a concurrent router')
  }
}

/**
 * The cap counters a routing transaction may draw on, and the units it takes.
 *
 * Exact under concurrency without making routers queue on counters they
 * end up not using: the counts are read without a lock, the decisions made
 * in memory from them (a match takes its daily and its monthly unit
 * together, or neither), and only the units taken are written, before the
 * match, as increments guarded by the cap. Of two routers counting on the
 * same last unit, the second waits for the first to commit and its guard
 * then fails (READ COMMITTED re-checks it on the row it waited for): it
 * hears CapConflict and decides again, from the start. Read with `lock`,
 * every counter a group may draw on is held until it commits, for a group
 * that kept losing that race: it then cannot lose it.
 */
export class CapLedger {
  #counts = new Map<string, number>()
  #taken = new Map<string, { limit: Limit; units: number }>()

  /**
   * Reads the counters `offers` may draw on, locked with `lock`.
   * `alongside` are SELECTs the caller needs in its transaction anyway,
   * read in the same round trip; their rows come back in order.
   */
  static async read(
    trx: TransactionClientContract,
    offers: { rule: CappedRule; at: Date }[],
    alongside: Part[] = [],
    options: { lock?: boolean } = {}
  ) {
    const ledger = new CapLedger()
    const wanted = new Map<string, Limit>()
    for (const { rule, at } of offers) {
      for (const limit of limitsOf(rule, at)) wanted.set(limit.key, limit)
    }
    // Every router creates missing counters in this one order, so two creating the same never deadlock.
    const limits = [...wanted.values()].sort(byKey)
    const reads = limits.length ? [counters(limits), ...alongside] : alongside
    const rows = reads.length ? await selectTogether(trx, reads) : []
    if (limits.length) ledger.#remember(rows.shift()!)

    const missing = limits.filter((limit) => !ledger.#counts.has(limit.key))
    if (missing.length > 0) await createCounters(trx, missing)
    // Rows this router created stay locked to it until it commits: it creates them before it locks
    // any other, so a router waiting on them never holds one it needs.
    const again = options.lock ? limits : missing
    if (again.length > 0) {
      const [counts] = await selectTogether(trx, [counters(again, options)])
      ledger.#remember(counts)
    }
    return { ledger, rows }
  }

  /**
   * Takes a match's units of each of the rule's caps for the periods `at` falls in (one of each
   * count cap, `priceCents` of each spend cap): the units taken, or null when one is used up.
   */
  take(rule: CappedRule, at: Date, priceCents = 0): ReservedUnits | null {
    const limits = limitsOf(rule, at)
    const unitsOf = (limit: Limit) => (isSpend(limit.kind) ? priceCents : 1)
    const full = limits.some((limit) => {
      const count = this.#counts.get(limit.key)
      if (count === undefined) throw new Error(`cap counter ${limit.key} was not read`)
      return count + unitsOf(limit) > limit.cap
    })
    if (full) return null
    for (const limit of limits) this.#add(limit, unitsOf(limit))
    return limits.map((limit) => ({
      rule_id: limit.ruleId,
      period: limit.period.key,
      units: unitsOf(limit),
    }))
  }

  /**
   * Whether the rule could take one more lead now: every count cap below its limit and every
   * spend cap not yet reached (a bid's price is not known before it is made).
   */
  hasRoom(rule: CappedRule, at: Date) {
    return limitsOf(rule, at).every((limit) => {
      const count = this.#counts.get(limit.key)
      if (count === undefined) throw new Error(`cap counter ${limit.key} was not read`)
      return count < limit.cap
    })
  }

  /** Gives back what a post reserved: the buyer did not take the lead, so the units are free again. */
  release(reserved: ReservedUnits) {
    for (const { rule_id: ruleId, period, units } of reserved) {
      // An attempt's units may carry its funds hold beside them (funds.ts), which is not a cap's.
      if (period === undefined) continue
      const key = `${ruleId}|${period}`
      const known = this.#taken.get(key)?.limit
      // The guard only applies to raising a counter: a release needs neither its cap nor its span.
      const limit: Limit = known ?? {
        key,
        ruleId,
        kind: 'daily',
        period: { key: period, start: new Date(0), end: new Date(0) },
        cap: 0,
      }
      this.#add(limit, -units)
      if (this.#counts.has(key)) this.#counts.set(key, this.#counts.get(key)! - units)
    }
  }

  #add(limit: Limit, units: number) {
    if (units > 0) this.#counts.set(limit.key, this.#counts.get(limit.key)! + units)
    const taken = this.#taken.get(limit.key)
    this.#taken.set(limit.key, { limit, units: (taken?.units ?? 0) + units })
  }

  /**
   * The units taken and given back, as one UPDATE to send before the match's other writes:
   * it raises each counter only while it stays within its cap (lowering one always succeeds)
   * and answers one row per counter changed (`confirm`). It locks them in key order first, so
   * routers that need the same counters queue on them and never deadlock.
   */
  increments(): Part | null {
    const changed = [...this.#taken.values()].filter(({ units }) => units !== 0)
    if (changed.length === 0) return null
    const taken = rowsOf(
      [...KEY_COLUMNS, ['units', 'int'], ['cap', 'int']],
      changed.map(({ limit, units }) => ({
        rule_id: limit.ruleId,
        period: limit.period.key,
        units,
        cap: limit.cap,
      }))
    )
    return rawPart(
      `UPDATE public.routing_rule_usage u SET count = greatest(u.count + t.units, 0)
       FROM (SELECT c.rule_id, c.period, v.units, v.cap FROM public.routing_rule_usage c
             JOIN ${taken.from} ON c.rule_id = v.rule_id AND c.period = v.period
             ORDER BY c.rule_id, c.period FOR UPDATE OF c) t
       WHERE u.rule_id = t.rule_id AND u.period = t.period
         AND (t.units <= 0 OR u.count + t.units <= t.cap)
       RETURNING u.rule_id, u.period, u.count`,
      taken.bindings
    )
  }

  /** Throws CapConflict unless the rows `increments` answered raised every counter taken from. */
  confirm(rows: Record<string, unknown>[]) {
    const raised = [...this.#taken.values()].filter(({ units }) => units > 0)
    const answered = new Set(rows.map((row) => `${row.rule_id}|${row.period}`))
    if (raised.some(({ limit }) => !answered.has(limit.key))) throw new CapConflict()
  }

  #remember(rows: Record<string, any>[]) {
    for (const row of rows) this.#counts.set(`${row.rule_id}|${row.period}`, Number(row.count))
  }
}

function byKey(a: Limit, b: Limit) {
  if (a.ruleId !== b.ruleId) return a.ruleId < b.ruleId ? -1 : 1
  return a.period.key < b.period.key ? -1 : a.period.key > b.period.key ? 1 : 0
}

/** The counters' counts; with `lock`, locked in key order so routers queue on them and never deadlock. */
function counters(limits: Limit[], options: { lock?: boolean } = {}): Part {
  const keys = rowsOf(
    KEY_COLUMNS,
    limits.map((limit) => ({ rule_id: limit.ruleId, period: limit.period.key }))
  )
  return rawPart(
    `SELECT u.rule_id, u.period, u.count FROM public.routing_rule_usage u
     JOIN ${keys.from} ON u.rule_id = v.rule_id AND u.period = v.period
     ${options.lock ? 'ORDER BY u.rule_id, u.period FOR UPDATE OF u' : ''}`,
    keys.bindings
  )
}

/**
 * What a rule sold in a counter's period before the counter existed: its sales, or their
 * prices for a spend counter (`spend-` periods). Reads `v.rule_id`, `v.period`, `v.starts`, `v.ends`.
 */
const SOLD_SO_FAR = `(SELECT CASE WHEN v.period LIKE 'spend-%' THEN coalesce(sum(s.price_cents), 0)
                                  ELSE count(*) END
     FROM public.sales s
    WHERE s.routing_rule_id = v.rule_id AND s.sold_at >= v.starts AND s.sold_at < v.ends)`

/**
 * First match of the period (or caps newly set): the counters start from
 * what the rule's sales already hold. One created meanwhile by a concurrent
 * router is left as it is (the insert waits for that router to commit).
 */
async function createCounters(trx: TransactionClientContract, missing: Limit[]) {
  const periods = periodRows(missing)
  await trx.rawQuery(
    `INSERT INTO public.routing_rule_usage (rule_id, period, count, expires_at)
     SELECT v.rule_id, v.period, ${SOLD_SO_FAR}, v.ends
     FROM ${periods.from}
     ON CONFLICT (rule_id, period) DO NOTHING`,
    periods.bindings
  )
}

/** The counters' keys and the span of their periods, for counting a rule's sales. */
function periodRows(limits: Limit[]) {
  return rowsOf(
    [...KEY_COLUMNS, ['starts', 'timestamptz'], ['ends', 'timestamptz']],
    limits.map((limit) => ({
      rule_id: limit.ruleId,
      period: limit.period.key,
      starts: limit.period.start,
      ends: limit.period.end,
    }))
  )
}

/** How much of one cap its current period has used. */
export type CapReading = { used: number; limit: number }
export type CapUsage = Partial<Record<CapKind, CapReading>>

/**
 * What each capped rule has used of its caps in the hour, day and month `at`
 * falls in (its own time zone), for people to read: no lock, so a router
 * may be one match ahead, and a post in flight counts as used. A period
 * without a counter yet counts the rule's sales, as the ledger would when it
 * creates it.
 */
export async function capUsage(
  rules: CappedRule[],
  at = new Date()
): Promise<Map<string, CapUsage>> {
  const limits = rules.flatMap((rule) => limitsOf(rule, at))
  const usage = new Map<string, CapUsage>()
  if (limits.length === 0) return usage
  const periods = periodRows(limits)
  const result = await db.rawQuery(
    `SELECT v.rule_id, v.period, coalesce(u.count, ${SOLD_SO_FAR})::int AS count
     FROM ${periods.from}
     LEFT JOIN public.routing_rule_usage u ON u.rule_id = v.rule_id AND u.period = v.period`,
    periods.bindings as any[]
  )
  const counts = new Map<string, number>(
    result.rows.map((row: Record<string, any>) => [`${row.rule_id}|${row.period}`, row.count])
  )
  for (const limit of limits) {
    const reading = { used: counts.get(limit.key) ?? 0, limit: limit.cap }
    usage.set(limit.ruleId, { ...usage.get(limit.ruleId), [limit.kind]: reading })
  }
  return usage
}
