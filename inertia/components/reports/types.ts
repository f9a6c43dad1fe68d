/**
 * The dashboards' props: the figures of GET /v1/reports/kpis and /timeseries as the portal
 * controllers pass them (app/services/reports/types.ts is their source).
 */
export type Dimension = 'publisher' | 'label' | 'buyer' | 'channel'

export type KpiFigures = {
  volume: number
  accepted: number
  acceptance_rate: number | null
  flagged: number
  flagged_rate: number | null
  rejected: number
  rejection_rate: number | null
  top_reasons: { code: string; count: number }[]
  drop_off: {
    form_views?: number
    form_starts?: number
    form_submissions?: number
    received: number
    accepted: number
    matched: number
    kept: number
  }
  avg_processing_ms: number | null
  p90_processing_ms: number | null
  /** Absent for a publisher. */
  revenue_cents?: number
  payout_cents?: number
  margin_cents?: number
  currency?: string | null
  returns: number
}

export type KpiRow = KpiFigures & {
  key: string | null
  name?: string | null
  previous: KpiFigures
  change: Record<string, number | null>
}

export type KpiReport = {
  period: { from: string; to: string }
  previous_period: { from: string; to: string }
  time_zone: string
  group_by: Dimension | null
  totals: KpiRow
  rows: KpiRow[]
}

export type Timeseries = {
  metric: string
  interval: 'hour' | 'day'
  time_zone: string
  period: { from: string; to: string }
  points: { at: string; value: number | null; previous: number | null }[]
}

/** The dashboard's address, as the controller read it (app/controllers/concerns/dashboard_query.ts). */
export type DashboardQuery = {
  period: 'today' | 'last_7_days' | 'last_30_days' | 'this_month' | 'custom'
  from: string
  to: string
  group_by: Dimension
  metric: string
  environment: 'live' | 'sandbox'
  interval: 'hour' | 'day'
  time_zone: string
  error: string | null
}

/** How a figure reads: a count, a share (0..1), a duration in ms, or cents. */
export type FigureFormat = 'count' | 'rate' | 'ms' | 'cents'
