import { DateTime } from 'luxon'
import type { WeeklySchedule } from '#models/routing_rule'

/** The days of a weekly schedule, Monday first (luxon's weekday 1). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/**
 * Time as a rule sees it: wall-clock time in the rule's IANA zone, so a
 * window "09:00–17:00 Europe/Amsterdam" keeps meaning office hours on both
 * sides of a daylight-saving change, and a cap's "day" is the buyer's day.
 */
function local(at: Date, zone: string) {
  return DateTime.fromJSDate(at, { zone })
}

type WallClock = { day: string; clock: string } | null
const wallClocks = new Map<string, WallClock>()

/**
 * Weekday and "HH:mm" in a zone for the minute `at` falls in. Routing asks
 * this of hundreds of rules per lead, mostly in a handful of zones, and a
 * zone's wall clock only moves once a minute: memoised per zone and minute.
 */
function wallClock(zone: string, at: Date): WallClock {
  const key = `${zone}|${Math.floor(at.getTime() / 60_000)}`
  let found = wallClocks.get(key)
  if (found === undefined) {
    const time = local(at, zone)
    found = time.isValid ? { day: WEEKDAYS[time.weekday - 1], clock: time.toFormat('HH:mm') } : null
    if (wallClocks.size >= 1000) wallClocks.clear()
    wallClocks.set(key, found)
  }
  return found
}

/** No schedule means always open. A window includes `from` and excludes `to` ("24:00" runs to midnight). */
export function withinSchedule(schedule: WeeklySchedule | null, at: Date) {
  if (!schedule) return true
  const now = wallClock(schedule.timezone, at)
  if (!now) return false
  return schedule.windows.some(
    (window) => window.days.includes(now.day) && window.from <= now.clock && now.clock < window.to
  )
}

/**
 * The most recent moment at or before `at` when one of the schedule's
 * windows opened, or null. Unsold leads tried before it may now find the
 * rule open.
 */
export function latestOpening(schedule: WeeklySchedule, at: Date): Date | null {
  const now = local(at, schedule.timezone)
  if (!now.isValid) return null
  let latest: DateTime | null = null
  for (let back = 0; back <= 7; back++) {
    const date = now.minus({ days: back }).startOf('day')
    const day = WEEKDAYS[date.weekday - 1]
    for (const window of schedule.windows) {
      if (!window.days.includes(day)) continue
      const [hour, minute] = window.from.split(':').map(Number)
      // A start inside a spring-forward gap moves to the first valid instant after it.
      const opened = date.set({ hour, minute })
      if (opened <= now && (!latest || opened > latest)) latest = opened
    }
    if (latest) break
  }
  return latest?.toJSDate() ?? null
}

export type CapPeriod = { key: string; start: Date; end: Date }

/** The hour, day and month that `at` falls in, in `zone`: what hourly, daily and monthly caps count. */
export function capPeriods(
  zone: string,
  at: Date
): { hourly: CapPeriod; daily: CapPeriod; monthly: CapPeriod } {
  const time = local(at, zone)
  const hour = time.startOf('hour')
  const day = time.startOf('day')
  const month = time.startOf('month')
  return {
    hourly: {
      key: `hour:${hour.toFormat("yyyy-MM-dd'T'HH")}`,
      start: hour.toJSDate(),
      end: hour.plus({ hours: 1 }).toJSDate(),
    },
    daily: {
      key: `day:${day.toISODate()}`,
      start: day.toJSDate(),
      end: day.plus({ days: 1 }).toJSDate(),
    },
    monthly: {
      key: `month:${month.toFormat('yyyy-MM')}`,
      start: month.toJSDate(),
      end: month.plus({ months: 1 }).toJSDate(),
    },
  }
}

/** The last local midnight at or before `at` across the zones: when the most recent daily cap reset. */
export function latestMidnight(zones: Iterable<string>, at: Date): Date | null {
  let latest: number | null = null
  for (const zone of zones) {
    const midnight = local(at, zone).startOf('day')
    if (midnight.isValid) latest = Math.max(latest ?? 0, midnight.toMillis())
  }
  return latest === null ? null : new Date(latest)
}
