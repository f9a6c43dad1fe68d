import { BaseTransformer } from '@adonisjs/core/transformers'
import type { KpiQuery, TimeseriesQuery } from '#services/reports/types'
import type { DashboardPeriod } from '#validators/dashboard'

/** What a dashboard's address asked for, as read (controllers/concerns/dashboard_query.ts). */
type DashboardAddress = {
  period: DashboardPeriod
  kpis: KpiQuery
  timeseries: TimeseriesQuery
  days: { from: string; to: string }
  error: string | null
}

/**
 * A dashboard's period, grouping, figure and environment as its page shows them in its pickers
 * (the first and last day in the period's zone), and why the address's period was not used.
 */
export default class DashboardQueryTransformer extends BaseTransformer<DashboardAddress> {
  toObject() {
    const query = this.resource
    return {
      period: query.period,
      from: query.days.from,
      to: query.days.to,
      group_by: query.kpis.groupBy ?? 'publisher',
      metric: query.timeseries.metric,
      environment: query.kpis.filters.environment ?? 'live',
      interval: query.timeseries.interval,
      time_zone: query.timeseries.timeZone ?? 'UTC',
      error: query.error,
    }
  }
}
