import type { Data } from '@generated/data'

/** One group's figures, as the KPI report gives them (its previous period's, say). */
type KpiFigures = Data.KpiReport['totals']['previous']

/** How a figure reads: a count, a share (0..1), a duration in ms, or cents. */
export type FigureFormat = 'count' | 'rate' | 'ms' | 'cents'

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })

/** A figure as the dashboards write it: "1,204", "87.5%", "1.2 s", "€25.00"; "–" when there is none. */
export function formatFigure(
  value: number | null | undefined,
  format: FigureFormat,
  currency = 'EUR'
) {
  if (value === null || value === undefined) return '–'
  switch (format) {
    case 'rate':
      return share.format(value)
    case 'ms':
      return value < 1000 ? `${count.format(value)} ms` : `${(value / 1000).toFixed(1)} s`
    case 'cents':
      try {
        return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value / 100)
      } catch {
        return `${(value / 100).toFixed(2)} ${currency}`
      }
    default:
      return count.format(value)
  }
}

/** The figures a dashboard shows, in order: what each is called, how it reads, which way is better. */
export type Kpi = {
  key: keyof KpiFigures & string
  label: string
  format: FigureFormat
  /** Whether a rise is good news ('up'), bad news ('down') or neither (null). */
  better: 'up' | 'down' | null
  /** Money: the operator's only. */
  money?: boolean
}

export const KPIS: Kpi[] = [
  { key: 'volume', label: 'Leads received', format: 'count', better: 'up' },
  { key: 'acceptance_rate', label: 'Acceptance', format: 'rate', better: 'up' },
  { key: 'flagged_rate', label: 'Flagged', format: 'rate', better: 'down' },
  { key: 'rejection_rate', label: 'Rejected', format: 'rate', better: 'down' },
  { key: 'avg_processing_ms', label: 'Processing, average', format: 'ms', better: 'down' },
  { key: 'p90_processing_ms', label: 'Processing, p90', format: 'ms', better: 'down' },
  { key: 'revenue_cents', label: 'Revenue', format: 'cents', better: 'up', money: true },
  { key: 'payout_cents', label: 'Payout', format: 'cents', better: null, money: true },
  { key: 'margin_cents', label: 'Margin', format: 'cents', better: 'up', money: true },
  { key: 'returns', label: 'Returns', format: 'count', better: 'down' },
]

/** What the chart may plot, in words. */
export const METRICS: { value: string; label: string; format: FigureFormat; money?: boolean }[] = [
  { value: 'volume', label: 'Leads received', format: 'count' },
  { value: 'accepted', label: 'Accepted', format: 'count' },
  { value: 'flagged', label: 'Flagged', format: 'count' },
  { value: 'rejected', label: 'Rejected', format: 'count' },
  { value: 'returns', label: 'Returns', format: 'count' },
  { value: 'avg_processing_ms', label: 'Processing time, average', format: 'ms' },
  { value: 'revenue_cents', label: 'Revenue', format: 'cents', money: true },
  { value: 'margin_cents', label: 'Margin', format: 'cents', money: true },
]
