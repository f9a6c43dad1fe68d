import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ReportService from '#services/reports/report_service'
import { reportCsv } from '#services/reports/report_csv'
import { kpiReportValidator, timeseriesReportValidator } from '#validators/report'
import KpiReportTransformer from '#transformers/kpi_report_transformer'
import TimeseriesTransformer from '#transformers/timeseries_transformer'

/** GET /v1/reports/kpis and /timeseries: JSON, or CSV with `Accept: text/csv` or `?format=csv`. */
@inject()
export default class ReportsController {
  constructor(protected reports: ReportService) {}

  async kpis(ctx: HttpContext) {
    await ctx.bouncer.with('ReportPolicy').authorize('view')
    const input = await kpiReportValidator.validate(ctx.request.qs())
    const report = await this.reports.kpis(
      ctx.principal,
      await this.reports.kpiQuery(ctx.principal, input)
    )
    if (!wantsCsv(ctx, input.format)) return ctx.serialize(KpiReportTransformer.transform(report))
    return sendCsv(ctx, report, 'kpis')
  }

  async timeseries(ctx: HttpContext) {
    await ctx.bouncer.with('ReportPolicy').authorize('view')
    const input = await timeseriesReportValidator.validate(ctx.request.qs())
    const series = await this.reports.timeseries(
      ctx.principal,
      await this.reports.timeseriesQuery(ctx.principal, input)
    )
    if (!wantsCsv(ctx, input.format)) return ctx.serialize(TimeseriesTransformer.transform(series))
    return sendCsv(ctx, series, `timeseries-${series.metric}`)
  }
}

function wantsCsv({ request }: HttpContext, format: 'json' | 'csv' | undefined) {
  return (
    format === 'csv' ||
    (format === undefined && request.accepts(['application/json', 'text/csv']) === 'text/csv')
  )
}

function sendCsv({ response }: HttpContext, report: Parameters<typeof reportCsv>[0], name: string) {
  const day = (at: string) => at.slice(0, 10)
  response.header('Content-Type', 'text/csv; charset=utf-8')
  response.header(
    'Content-Disposition',
    `attachment; filename="report-${name}-${day(report.period.from)}-${day(report.period.to)}.csv"`
  )
  response.header('Cache-Control', 'no-store')
  return response.send(reportCsv(report))
}
