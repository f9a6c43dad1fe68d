/**
 * The dashboards' props: the figures of GET /v1/reports/kpis and /timeseries as the portal
 * controllers pass them, in the report service's own vocabulary (types only: nothing of the
 * server reaches the bundle).
 */
import type { ReportDimension } from '#services/reports/types'

export type {
  KpiFigures,
  KpiReport,
  KpiRow,
  ReportDimension as Dimension,
  Timeseries,
} from '#services/reports/types'

/** The dashboard's address, as the controller read it (app/controllers/concerns/dashboard_query.ts). */
export type DashboardQuery = {
  period: 'today' | 'last_7_days' | 'last_30_days' | 'this_month' | 'custom'
  from: string
  to: string
  group_by: ReportDimension
  metric: string
  environment: 'live' | 'sandbox'
  interval: 'hour' | 'day'
  time_zone: string
  error: string | null
}

/** How a figure reads: a count, a share (0..1), a duration in ms, or cents. */
export type FigureFormat = 'count' | 'rate' | 'ms' | 'cents'
