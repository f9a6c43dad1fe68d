import vine from '@vinejs/vine'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** The period picker's choices; `custom` reads `from` and `to` (whole days, `to` included). */
export const DASHBOARD_PERIODS = [
  'today',
  'last_7_days',
  'last_30_days',
  'this_month',
  'custom',
] as const
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number]

/** What a chart of the dashboard may plot over time; money only for the operator. */
export const DASHBOARD_METRICS = [
  'volume',
  'accepted',
  'flagged',
  'rejected',
  'returns',
  'avg_processing_ms',
  'revenue_cents',
  'margin_cents',
] as const

/**
 * A dashboard's address (/operator/reports?period=last_7_days&group_by=label): the period,
 * how the table is grouped and what the chart plots. A hand-edited address that does not
 * validate falls back to the defaults rather than an error page.
 */
export const dashboardValidator = vine.create({
  period: vine.enum(DASHBOARD_PERIODS).optional(),
  from: vine.string().regex(ISO_DATE).optional(),
  to: vine.string().regex(ISO_DATE).optional(),
  group_by: vine.enum(['publisher', 'label', 'buyer', 'channel'] as const).optional(),
  metric: vine.enum(DASHBOARD_METRICS).optional(),
  environment: vine.enum(['live', 'sandbox'] as const).optional(),
  format: vine.enum(['csv', 'json'] as const).optional(),
})
