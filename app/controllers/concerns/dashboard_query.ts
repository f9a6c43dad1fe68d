import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import type ReportService from '#services/reports/report_service'
import type { KpiQuery, ReportDimension, TimeseriesQuery } from '#services/reports/types'
import { type DashboardPeriod, dashboardValidator } from '#validators/dashboard'
import DashboardQueryTransformer from '#transformers/dashboard_query_transformer'

/** A dashboard's period, table and chart, as its address asks (defaults for what it does not say). */
export type DashboardQuery = {
  period: DashboardPeriod
  kpis: KpiQuery
  timeseries: TimeseriesQuery
  /** The first and the last day of the period, in its zone, for the date pickers. */
  days: { from: string; to: string }
  format: 'csv' | 'json'
  /** Why the address's period was not used, in words for the page. */
  error: string | null
}

const DEFAULT_PERIOD = 'last_7_days'
const HOURLY_UP_TO_HOURS = 48

/**
 * Reads a dashboard's address (/operator/reports?period=today&group_by=label&metric=volume)
 * into the report service's queries, through the service's own reading of GET
 * /v1/reports's query string (report_query.ts): the same periods, zones and limits. Whole
 * days of one's choosing are `from` and `to`, both included. An address that does not make
 * a period falls back to the last 7 days, with a word on the page, not an error page.
 */
export async function dashboardQueryOf(
  reports: ReportService,
  principal: Principal,
  request: HttpContext['request'],
  defaults: { groupBy: ReportDimension }
): Promise<DashboardQuery> {
  const [invalid, input] = await dashboardValidator.tryValidate(request.qs())
  const asked = invalid ? {} : input
  let error = invalid ? 'That address was not understood; showing the last 7 days.' : null
  const base = {
    environment: asked.environment ?? ('live' as const),
    group_by: asked.group_by ?? defaults.groupBy,
  }
  let period: DashboardPeriod = asked.period ?? DEFAULT_PERIOD
  let kpis: KpiQuery
  try {
    if (period !== 'custom') kpis = await reports.kpiQuery(principal, { ...base, period })
    else {
      if (!asked.from || !asked.to) throw ApiProblem.badRequest('period', 'no days')
      // The last day is included: the report's `to` is the midnight after it.
      const after = DateTime.fromISO(asked.to).plus({ days: 1 }).toISODate()!
      kpis = await reports.kpiQuery(principal, { ...base, from: asked.from, to: after })
    }
  } catch (problem) {
    if (!(problem instanceof ApiProblem)) throw problem
    error = 'Choose a first day on or before the last, at most two years apart.'
    period = DEFAULT_PERIOD
    kpis = await reports.kpiQuery(principal, { ...base, period })
  }
  const timeZone = kpis.timeZone ?? 'UTC'
  const hours = (kpis.to.getTime() - kpis.from.getTime()) / 3_600_000
  const day = (moment: Date) => DateTime.fromJSDate(moment).setZone(timeZone).toISODate()!
  return {
    period,
    kpis,
    timeseries: {
      metric: asked.metric ?? 'volume',
      interval: hours <= HOURLY_UP_TO_HOURS ? 'hour' : 'day',
      from: kpis.from,
      to: kpis.to,
      timeZone,
      filters: kpis.filters,
    },
    days: { from: day(kpis.from), to: day(new Date(kpis.to.getTime() - 1)) },
    format: asked.format ?? 'csv',
    error,
  }
}

/** The exports of a dashboard at `base`: the same address, as CSV and as JSON. */
export function dashboardExports(base: string, query: DashboardQuery) {
  const json = new DashboardQueryTransformer(query).toObject()
  const params = (format: string) =>
    new URLSearchParams({
      period: json.period,
      ...(json.period === 'custom' ? { from: json.from, to: json.to } : {}),
      group_by: json.group_by,
      metric: json.metric,
      environment: json.environment,
      format,
    }).toString()
  return {
    kpis_csv: `${base}/kpis?${params('csv')}`,
    kpis_json: `${base}/kpis?${params('json')}`,
    timeseries_csv: `${base}/timeseries?${params('csv')}`,
    timeseries_json: `${base}/timeseries?${params('json')}`,
  }
}
