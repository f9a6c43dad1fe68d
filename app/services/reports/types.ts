/**
 * The vocabulary of reports (docs/reports.md): what a KPI query asks and what
 * it answers. The API (`GET /v1/reports/kpis`, `/timeseries`), the portal
 * dashboards and the CSV exports all speak it.
 */
import type { Environment } from '#auth/principal'

export type ReportDimension = 'publisher' | 'label' | 'buyer' | 'channel'

export type ReportFilters = {
  publisher?: string[]
  label?: string[]
  buyer?: string[]
  channel?: string[]
  environment?: Environment
}

/** A period is [from, to): `from` inclusive, `to` exclusive, both instants (UTC). */
export type ReportPeriod = { from: string; to: string }

export type KpiQuery = {
  from: Date
  to: Date
  groupBy?: ReportDimension
  /** The zone periods are read in; the label's when one label is asked for, else UTC. */
  timeZone?: string
  filters: ReportFilters
}

/** One group's figures; money is integer cents, per currency when a group mixes currencies. */
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
  /** Absent for a publisher: never revenue, price or margin. */
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
  period: ReportPeriod
  previous_period: ReportPeriod
  time_zone: string
  group_by: ReportDimension | null
  totals: KpiRow
  rows: KpiRow[]
}

export type TimeseriesMetric =
  | 'volume'
  | 'accepted'
  | 'flagged'
  | 'rejected'
  | 'matched'
  | 'returns'
  | 'revenue_cents'
  | 'payout_cents'
  | 'margin_cents'
  | 'avg_processing_ms'

export type TimeseriesQuery = {
  metric: TimeseriesMetric
  interval: 'hour' | 'day'
  from: Date
  to: Date
  timeZone?: string
  filters: ReportFilters
}

export type Timeseries = {
  metric: TimeseriesMetric
  interval: 'hour' | 'day'
  time_zone: string
  period: ReportPeriod
  points: { at: string; value: number | null; previous: number | null }[]
}
