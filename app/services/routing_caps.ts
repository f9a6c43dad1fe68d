import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import routingConfig from '#config/routing'
import type { ActiveRule } from '#services/routing_rule_book'
import { capPeriods, type CapPeriod } from '#services/routing_schedule'

type CappedRule = Pick<ActiveRule, 'id' | 'caps' | 'schedule'>

/** A cap's day and month are the rule's own: its schedule's time zone, else the default. */
export function ruleZone(rule: Pick<ActiveRule, 'schedule'>) {
  return rule.schedule?.timezone ?? routingConfig.defaultTimezone
}

class CapReached extends Error {}

/**
 * Takes one unit of the rule's daily and monthly caps for the period `at`
 * falls in, inside the routing transaction; false when either is used up.
 *
 * Exact under concurrency: the increment is a guarded UPDATE on the rule's
 * counter row, so concurrent routers of one rule queue on that row and each
 * sees the count the previous one committed. The two caps are taken in one
 * savepoint: a full monthly cap gives back the daily unit, and the row locks
 * go with it, so a lead moving on to another rule holds no lock on this one.
 */
export async function reserveCap(trx: TransactionClientContract, rule: CappedRule, at: Date) {
  const periods = capPeriods(ruleZone(rule), at)
  const limits: [CapPeriod, number][] = []
  if (rule.caps.daily) limits.push([periods.daily, rule.caps.daily])
  if (rule.caps.monthly) limits.push([periods.monthly, rule.caps.monthly])
  if (limits.length === 0) return true

  try {
    await trx.transaction(async (savepoint) => {
      for (const [period, cap] of limits) {
        if (!(await take(savepoint, rule.id, period, cap))) throw new CapReached()
      }
    })
    return true
  } catch (error) {
    if (error instanceof CapReached) return false
    throw error
  }
}

async function take(
  trx: TransactionClientContract,
  ruleId: string,
  period: CapPeriod,
  cap: number
) {
  if (await increment(trx, ruleId, period.key, cap)) return true
  // No row yet (first match of the period, or caps newly set): start from what lead_facts already holds.
  await trx.rawQuery(
    `INSERT INTO public.routing_rule_usage (rule_id, period, count, expires_at)
     SELECT ?, ?, count(*), ? FROM public.lead_facts
     WHERE routing_rule_id = ? AND matched_at >= ? AND matched_at < ?
     ON CONFLICT (rule_id, period) DO NOTHING`,
    [ruleId, period.key, period.end, ruleId, period.start, period.end]
  )
  // Inserted here or by a concurrent router (the insert waited for it to commit): count again.
  return increment(trx, ruleId, period.key, cap)
}

async function increment(
  trx: TransactionClientContract,
  ruleId: string,
  period: string,
  cap: number
) {
  const result = await trx.rawQuery(
    `UPDATE public.routing_rule_usage SET count = count + 1
     WHERE rule_id = ? AND period = ? AND count < ? RETURNING count`,
    [ruleId, period, cap]
  )
  return result.rows.length > 0
}
