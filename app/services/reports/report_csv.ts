import { stringify } from 'csv-stringify/sync'
import type { KpiFigures, KpiReport, KpiRow, Timeseries } from '#services/reports/types'

/**
 * A report as CSV, for the API and the portal's export buttons alike: one line per group (the
 * totals first) with its figures, the previous period's (`previous_`) and the change
 * (`change_`); a time series one line per point. Only the figures the report carries, so
 * what an audience is not shown is not there either. A cell a spreadsheet would run as a
 * formula is escaped.
 */
export function reportCsv(report: KpiReport | Timeseries): string {
  if ('points' in report) {
    return stringify(
      report.points.map((point) => ({
        at: point.at,
        value: point.value,
        previous: point.previous,
      })),
      { header: true, escape_formulas: true, columns: ['at', 'value', 'previous'] }
    )
  }
  const records = [report.totals, ...report.rows].map((row, index) => ({
    key: index === 0 ? 'total' : row.key,
    name: index === 0 ? null : (row.name ?? null),
    period_from: report.period.from,
    period_to: report.period.to,
    ...flat(row),
    ...prefixed('previous_', flat(row.previous)),
    ...prefixed('change_', row.change),
  }))
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))]
  return stringify(records, { header: true, escape_formulas: true, columns })
}

function flat(figures: KpiFigures | KpiRow) {
  const cells: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(figures)) {
    if (['key', 'name', 'previous', 'change', 'by_currency'].includes(key)) continue
    if (key === 'top_reasons') {
      cells[key] = figures.top_reasons.map((reason) => `${reason.code}:${reason.count}`).join(' ')
    } else if (key === 'drop_off') {
      for (const [step, count] of Object.entries(figures.drop_off))
        cells[`drop_off_${step}`] = count
    } else {
      cells[key] = value
    }
  }
  return cells
}

function prefixed(prefix: string, cells: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(cells).map(([key, value]) => [`${prefix}${key}`, value]))
}
