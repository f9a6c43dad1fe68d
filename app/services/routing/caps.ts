import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import routingConfig from '#config/routing'
import type { ActiveRule } from '#services/routing/rule_book'
import { capPeriods, type CapPeriod } from '#services/routing/schedule'
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
type Limit = {
  key: string
  ruleId: string
  kind: 'daily' | 'monthly'
  period: CapPeriod
  cap: number
}

/** A cap's day and month are the rule's own: its schedule's time zone, else the default. */
export function ruleZone(rule: Pick<ActiveRule, 'schedule'>) {
  return rule.schedule?.timezone ?? routingConfig.defaultTimezone
}

export function isCapped(rule: Pick<ActiveRule, 'caps'>) {
  return Boolean(rule.caps.daily || rule.caps.monthly)
}

/** The counters one match of the rule at `at` counts against: its day's and its month's. */
function limitsOf(rule: CappedRule, at: Date): Limit[] {
  if (!isCapped(rule)) return []
  const periods = capPeriods(ruleZone(rule), at)
  const limits: Limit[] = []
  const add = (kind: Limit['kind'], cap: number) => {
    const period = periods[kind]
    limits.push({ key: `${rule.id}|${period.key}`, ruleId: rule.id, kind, period, cap })
  }
  if (rule.caps.daily) add('daily', rule.caps.daily)
  if (rule.caps.monthly) add('monthly', rule.caps.monthly)
  return limits
}

/**
 * The cap counters a routing transaction may draw on, locked for it.
 *
 * Exact under concurrency: every counter a group of leads might take from
 * is locked up front, in one statement and in key order, so concurrent
 * routers queue on the rows they share, never deadlock on them, and each
 * reads the count the previous one committed. The decisions are then made
 * in memory (a match takes its daily and its monthly unit together, or
 * neither) and the new counts written with the match.
 */
export class CapLedger {
  #counts = new Map<string, number>()
  #changed = new Map<string, Limit>()

  /**
   * Locks the counters `offers` may draw on. `alongside` are SELECTs the
   * caller needs in its transaction anyway, read in the same round trip;
   * their rows come back in order.
   */
  static async lock(
    trx: TransactionClientContract,
    offers: { rule: CappedRule; at: Date }[],
    alongside: Part[] = []
  ) {
    const ledger = new CapLedger()
    const wanted = new Map<string, Limit>()
    for (const { rule, at } of offers) {
      for (const limit of limitsOf(rule, at)) wanted.set(limit.key, limit)
    }
    const limits = [...wanted.values()]
    const reads = limits.length ? [lockCounters(limits), ...alongside] : alongside
    const rows = reads.length ? await selectTogether(trx, reads) : []
    if (limits.length) ledger.#remember(rows.shift()!)

    const missing = limits.filter((limit) => !ledger.#counts.has(limit.key))
    if (missing.length > 0) {
      // First match of the period (or caps newly set): start from what lead_facts already holds.
      const periods = rowsOf(
        [...KEY_COLUMNS, ['starts', 'timestamptz'], ['ends', 'timestamptz']],
        missing.map((limit) => ({
          rule_id: limit.ruleId,
          period: limit.period.key,
          starts: limit.period.start,
          ends: limit.period.end,
        }))
      )
      await trx.rawQuery(
        `INSERT INTO public.routing_rule_usage (rule_id, period, count, expires_at)
         SELECT v.rule_id, v.period,
           (SELECT count(*) FROM public.lead_facts f
            WHERE f.routing_rule_id = v.rule_id AND f.matched_at >= v.starts AND f.matched_at < v.ends),
           v.ends
         FROM ${periods.from}
         ON CONFLICT (rule_id, period) DO NOTHING`,
        periods.bindings
      )
      // Inserted here or by a concurrent router (the insert waited for it to commit): read them locked.
      const [inserted] = await selectTogether(trx, [lockCounters(missing)])
      ledger.#remember(inserted)
    }
    return { ledger, rows }
  }

  /** Takes one unit of each of the rule's caps for the period `at` falls in; false when one is used up. */
  take(rule: CappedRule, at: Date) {
    const limits = limitsOf(rule, at)
    const full = limits.some((limit) => {
      const count = this.#counts.get(limit.key)
      if (count === undefined) throw new Error(`cap counter ${limit.key} was not locked`)
      return count >= limit.cap
    })
    if (full) return false
    for (const limit of limits) {
      this.#counts.set(limit.key, this.#counts.get(limit.key)! + 1)
      this.#changed.set(limit.key, limit)
    }
    return true
  }

  /** The counts taken, as one UPDATE to send with the match's other writes. */
  update(): Part | null {
    if (this.#changed.size === 0) return null
    const changed = rowsOf(
      [...KEY_COLUMNS, ['count', 'int']],
      [...this.#changed.values()].map((limit) => ({
        rule_id: limit.ruleId,
        period: limit.period.key,
        count: this.#counts.get(limit.key),
      }))
    )
    return rawPart(
      `UPDATE public.routing_rule_usage u SET count = v.count
       FROM ${changed.from} WHERE u.rule_id = v.rule_id AND u.period = v.period`,
      changed.bindings
    )
  }

  #remember(rows: Record<string, any>[]) {
    for (const row of rows) this.#counts.set(`${row.rule_id}|${row.period}`, row.count)
  }
}

/** The counters, locked in key order so concurrent routers queue on them and never deadlock. */
function lockCounters(limits: Limit[]): Part {
  const keys = rowsOf(
    KEY_COLUMNS,
    limits.map((limit) => ({ rule_id: limit.ruleId, period: limit.period.key }))
  )
  return rawPart(
    `SELECT u.rule_id, u.period, u.count FROM public.routing_rule_usage u
     JOIN ${keys.from} ON u.rule_id = v.rule_id AND u.period = v.period
     ORDER BY u.rule_id, u.period FOR UPDATE OF u`,
    keys.bindings
  )
}

/** How much of one cap its current period has used. */
export type CapReading = { used: number; limit: number }
export type CapUsage = { daily?: CapReading; monthly?: CapReading }

/**
 * What each capped rule has used of its caps in the day and month `at`
 * falls in (its own time zone), for people to read: no lock, so a router
 * may be one match ahead. A period without a counter yet counts what
 * lead_facts holds, as the ledger would when it creates it.
 */
export async function capUsage(
  rules: CappedRule[],
  at = new Date()
): Promise<Map<string, CapUsage>> {
  const limits = rules.flatMap((rule) => limitsOf(rule, at))
  const usage = new Map<string, CapUsage>()
  if (limits.length === 0) return usage
  const periods = rowsOf(
    [...KEY_COLUMNS, ['starts', 'timestamptz'], ['ends', 'timestamptz']],
    limits.map((limit) => ({
      rule_id: limit.ruleId,
      period: limit.period.key,
      starts: limit.period.start,
      ends: limit.period.end,
    }))
  )
  const result = await db.rawQuery(
    `SELECT v.rule_id, v.period, coalesce(u.count,
       (SELECT count(*) FROM public.lead_facts f
        WHERE f.routing_rule_id = v.rule_id AND f.matched_at >= v.starts AND f.matched_at < v.ends))::int AS count
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
