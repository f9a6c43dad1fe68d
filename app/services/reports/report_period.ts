import { DateTime } from 'luxon'
import ApiProblem from '#exceptions/api_problem'
import type { ReportPeriod } from '#services/reports/types'

/** Named periods, read in the report's time zone; `last_n_days` include today. */
export const NAMED_PERIODS = [
  'today',
  'yesterday',
  'this_month',
  'last_month',
  'last_7_days',
  'last_30_days',
  'last_90_days',
] as const
export type NamedPeriod = (typeof NAMED_PERIODS)[number]

/**
 * A stretch of time read from one source: whole UTC months, weeks, days or hours from the
 * rollups, the rest raw; counted `sign` times (-1 takes a stretch out of a larger one read whole).
 */
export type Segment = {
  bucket: number
  grain: 'month' | 'week' | 'day' | 'hour' | 'raw'
  from: Date
  to: Date
  sign: 1 | -1
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
const WEEK = 7 * DAY
/** 1970-01-05, the first Monday of the epoch. */
const MONDAY = 4 * DAY

export function isTimeZone(zone: string) {
  return DateTime.now().setZone(zone).isValid
}

function invalid(field: string, message: string): never {
  throw ApiProblem.unprocessable([{ field, code: 'period', message }])
}

/** A bare date is midnight in the zone; a moment carries its own offset. */
export function boundOf(value: string, zone: string, field: string) {
  const moment = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? DateTime.fromISO(value, { zone })
    : DateTime.fromISO(value, { setZone: true })
  if (!moment.isValid) invalid(field, `Use a date (2026-03-01) or a moment with its offset.`)
  return moment.toJSDate()
}

export function namedPeriod(name: NamedPeriod, zone: string, now = new Date()) {
  const today = DateTime.fromJSDate(now).setZone(zone).startOf('day')
  const span = (from: DateTime, to: DateTime) => ({ from: from.toJSDate(), to: to.toJSDate() })
  switch (name) {
    case 'today':
      return span(today, today.plus({ days: 1 }))
    case 'yesterday':
      return span(today.minus({ days: 1 }), today)
    case 'this_month':
      return span(today.startOf('month'), today.startOf('month').plus({ months: 1 }))
    case 'last_month':
      return span(today.startOf('month').minus({ months: 1 }), today.startOf('month'))
    default: {
      const days = Number(name.split('_')[1])
      return span(today.minus({ days: days - 1 }), today.plus({ days: 1 }))
    }
  }
}

/**
 * The period of equal length just before [from, to). When both ends are midnights in the
 * zone, the length is counted in the zone's days, so a day across a DST change (23 or 25
 * hours) is compared with the whole day before it; otherwise it is the same duration.
 */
export function previousOf(from: Date, to: Date, zone: string) {
  const start = DateTime.fromJSDate(from).setZone(zone)
  const end = DateTime.fromJSDate(to).setZone(zone)
  const midnight = (moment: DateTime) => moment.equals(moment.startOf('day'))
  if (midnight(start) && midnight(end)) {
    const days = Math.round(end.diff(start, 'days').days)
    return { from: start.minus({ days }).toJSDate(), to: from }
  }
  return { from: new Date(from.getTime() - (to.getTime() - from.getTime())), to: from }
}

export function periodJson(from: Date, to: Date): ReportPeriod {
  return { from: from.toISOString(), to: to.toISOString() }
}

const ceil = (at: number, unit: number) => Math.ceil(at / unit) * unit
const floor = (at: number, unit: number) => Math.floor(at / unit) * unit
const monthFloor = (at: number) => {
  const day = new Date(at)
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)
}
const monthCeil = (at: number) => {
  const start = monthFloor(at)
  if (start === at) return at
  const day = new Date(start)
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1)
}

/**
 * What reading a part of a day costs per group: a rollup row is one row, an hour of raw facts
 * counts as several (a busy publisher's facts of an hour outnumber its one hour row).
 */
const RAW_HOUR_COST = 4

function cost(segments: Segment[]) {
  const hours = (s: Segment) => (s.to.getTime() - s.from.getTime()) / HOUR
  return segments.reduce(
    (sum, s) =>
      sum + (s.grain === 'raw' ? hours(s) * RAW_HOUR_COST : s.grain === 'hour' ? hours(s) : 1),
    0
  )
}

/**
 * [from, to) as whole UTC months, weeks, days and (when the cube keeps them) hours, and raw
 * edges (a period in a zone with a :30 offset, or an arbitrary `from`), so every figure is exact
 * whatever the bounds, and a long period reads few rows: a month row for each whole month, a
 * week or day row for each other whole day. A part of a day at either end is read as hours and
 * raw facts, or, when that is more than half the day, as the whole day minus the rest of it:
 * 20 hours cost 1 day row and 4 hour rows, not 20.
 */
export function segmentsOf(
  from: Date,
  to: Date,
  bucket: number,
  options: { hours: boolean; weeks?: boolean } = { hours: true }
): Segment[] {
  const [start, end] = [from.getTime(), to.getTime()]
  if (end <= start) return []
  const at = (grain: Segment['grain'], a: number, b: number, sign: 1 | -1 = 1): Segment[] =>
    a < b ? [{ bucket, grain, from: new Date(a), to: new Date(b), sign }] : []
  // The finest rows of [a, b): hours where the cube keeps them, the facts for the rest.
  const finest = (a: number, b: number, sign: 1 | -1): Segment[] => {
    const [hourStart, hourEnd] = options.hours ? [ceil(a, HOUR), floor(b, HOUR)] : [b, b]
    if (hourStart >= hourEnd) return at('raw', a, b, sign)
    return [
      ...at('raw', a, hourStart, sign),
      ...at('hour', hourStart, hourEnd, sign),
      ...at('raw', hourEnd, b, sign),
    ]
  }
  // [a, b) inside one UTC day: its own rows, or the day's row less the rest of the day.
  const partOfDay = (a: number, b: number): Segment[] => {
    if (a >= b) return []
    const day = floor(a, DAY)
    const direct = finest(a, b, 1)
    const complement = [
      ...at('day', day, day + DAY),
      ...finest(day, a, -1),
      ...finest(b, day + DAY, -1),
    ]
    return cost(complement) < cost(direct) ? complement : direct
  }
  const [dayStart, dayEnd] = [ceil(start, DAY), floor(end, DAY)]
  if (dayStart > dayEnd) return partOfDay(start, end)
  // Whole ISO weeks (from a UTC Monday) among the days, where the table keeps them.
  const wholeDays = (a: number, b: number) => {
    const [weekStart, weekEnd] = [ceil(a - MONDAY, WEEK) + MONDAY, floor(b - MONDAY, WEEK) + MONDAY]
    if (!options.weeks || weekStart >= weekEnd) return at('day', a, b)
    return [...at('day', a, weekStart), ...at('week', weekStart, weekEnd), ...at('day', weekEnd, b)]
  }
  const [monthStart, monthEnd] = [monthCeil(dayStart), monthFloor(dayEnd)]
  const days =
    monthStart >= monthEnd
      ? wholeDays(dayStart, dayEnd)
      : [
          ...wholeDays(dayStart, monthStart),
          ...at('month', monthStart, monthEnd),
          ...wholeDays(monthEnd, dayEnd),
        ]
  return [...partOfDay(start, dayStart), ...days, ...partOfDay(dayEnd, end)]
}

/** The points of a time series: local hours or local days in the zone, clipped to [from, to). */
export function bucketsOf(from: Date, to: Date, interval: 'hour' | 'day', zone: string) {
  const buckets: { from: Date; to: Date }[] = []
  let at = DateTime.fromJSDate(from).setZone(zone).startOf(interval)
  while (at.toMillis() < to.getTime()) {
    const next = at.plus({ [`${interval}s`]: 1 })
    buckets.push({
      from: new Date(Math.max(at.toMillis(), from.getTime())),
      to: new Date(Math.min(next.toMillis(), to.getTime())),
    })
    at = next
  }
  return buckets
}
