import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import type {
  KpiQuery,
  ReportDimension,
  ReportFilters,
  TimeseriesMetric,
  TimeseriesQuery,
} from '#services/reports/types'
import { resolveFilters, zoneOf } from '#services/reports/report_scope'
import { boundOf, isTimeZone, type NamedPeriod, namedPeriod } from '#services/reports/report_period'

/** What the API takes (query string), before the period is read in the report's zone. */
export type ReportInput = ReportFilters & {
  from?: string
  to?: string
  period?: NamedPeriod
  time_zone?: string
}
export type KpiInput = ReportInput & { group_by?: ReportDimension }
export type TimeseriesInput = ReportInput & {
  metric: TimeseriesMetric
  interval?: 'hour' | 'day'
}

/** The longest period a report reads, and the most points a time series answers. */
export const MAX_PERIOD_DAYS = 732
export const MAX_POINTS = 2_000

function invalid(field: string, message: string): never {
  throw ApiProblem.unprocessable([{ field, code: 'period', message }])
}

/**
 * The period in its zone: the label's when the report is about one label, else UTC (or the
 * zone asked for). `from`/`to` win over a named period; without either, the last 30 days.
 */
async function periodOf(principal: Principal, input: ReportInput, filters: ReportFilters) {
  if (input.time_zone && !isTimeZone(input.time_zone)) {
    invalid('time_zone', 'Use an IANA time zone such as Europe/Berlin.')
  }
  const timeZone =
    input.time_zone ?? (await zoneOf(principal, await resolveFilters(principal, filters)))
  const named = namedPeriod(input.period ?? 'last_30_days', timeZone)
  const from = input.from ? boundOf(input.from, timeZone, 'from') : named.from
  const to = input.to ? boundOf(input.to, timeZone, 'to') : named.to
  if (to <= from) invalid('to', '`to` must come after `from`.')
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000) {
    invalid('to', `A report reads at most ${MAX_PERIOD_DAYS} days.`)
  }
  return { from, to, timeZone }
}

function filtersOf(input: ReportInput): ReportFilters {
  const filters: ReportFilters = {}
  for (const key of ['publisher', 'label', 'buyer', 'channel'] as const) {
    if (input[key]?.length) filters[key] = input[key]
  }
  if (input.environment) filters.environment = input.environment
  return filters
}

export async function kpiQueryOf(principal: Principal, input: KpiInput): Promise<KpiQuery> {
  const filters = filtersOf(input)
  return { ...(await periodOf(principal, input, filters)), groupBy: input.group_by, filters }
}

export async function timeseriesQueryOf(
  principal: Principal,
  input: TimeseriesInput
): Promise<TimeseriesQuery> {
  const filters = filtersOf(input)
  const period = await periodOf(principal, input, filters)
  const interval = input.interval ?? 'day'
  const hours = (period.to.getTime() - period.from.getTime()) / 3_600_000
  if ((interval === 'hour' ? hours : hours / 24) > MAX_POINTS) {
    invalid('interval', `A time series answers at most ${MAX_POINTS} points; widen the interval.`)
  }
  return { ...period, metric: input.metric, interval, filters }
}
