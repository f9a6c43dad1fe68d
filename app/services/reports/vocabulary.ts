import type { ReportDimension, TimeseriesMetric } from '#services/reports/types'

/** What a report groups by and what a time series draws: the API, its validator and its document share them. */
export const REPORT_DIMENSIONS = [
  'publisher',
  'label',
  'buyer',
  'channel',
] as const satisfies readonly ReportDimension[]

export const TIMESERIES_METRICS = [
  'volume',
  'accepted',
  'flagged',
  'rejected',
  'matched',
  'returns',
  'revenue_cents',
  'payout_cents',
  'margin_cents',
  'avg_processing_ms',
] as const satisfies readonly TimeseriesMetric[]
