import { DateTime } from 'luxon'
import type { SettlementPolicy } from '#services/money/settlement_policy_service'

/** A calendar date in UTC, `YYYY-MM-DD`: how payout periods are named. */
export type IsoDate = string

const utcDay = (moment: Date) => DateTime.fromJSDate(moment, { zone: 'utc' }).startOf('day')

/**
 * The last day of the last period of this schedule that has ended by `now` (UTC): for a
 * weekly schedule the Sunday before (a week ends at Monday 00:00), for a monthly one the last
 * day of the previous month. On a Monday that is yesterday; on a Sunday the Sunday before.
 */
export function lastFullPeriodEnd(
  schedule: SettlementPolicy['payout_schedule'],
  now = new Date()
): IsoDate {
  const today = utcDay(now)
  const end =
    schedule === 'weekly'
      ? today.minus({ days: today.weekday })
      : today.startOf('month').minus({ days: 1 })
  return end.toISODate()!
}

/** The first moment after the period: a sale final before it belongs to the period. */
export function periodBoundary(periodEnd: IsoDate) {
  return DateTime.fromISO(periodEnd, { zone: 'utc' }).plus({ days: 1 }).toJSDate()
}

/** Today in UTC, the latest period end a run may name (a later day has not begun to end). */
export function todayUtc(now = new Date()): IsoDate {
  return utcDay(now).toISODate()!
}

/** The day after a date: where the period of a payout starts, after its publisher's previous one. */
export function dayAfter(date: IsoDate): IsoDate {
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days: 1 }).toISODate()!
}
