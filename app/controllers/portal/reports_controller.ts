import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import Label from '#models/label'
import ReportService from '#services/reports/report_service'
import { reportCsv } from '#services/reports/report_csv'
import { HIDDEN, audienceOf as reportAudienceOf } from '#services/reports/report_scope'
import type { KpiReport, ReportDimension } from '#services/reports/types'
import type { ItemContract } from '@adonisjs/core/types/transformers'
import {
  type DashboardQuery,
  dashboardExports,
  dashboardQueryOf,
} from '#controllers/concerns/dashboard_query'
import DashboardQueryTransformer from '#transformers/dashboard_query_transformer'
import KpiReportTransformer from '#transformers/kpi_report_transformer'
import TimeseriesTransformer from '#transformers/timeseries_transformer'

/** Each dashboard audience: where its dashboard lives, how it may group, where its leads are. */
const AUDIENCES = {
  operator: {
    base: '/operator/reports',
    groupings: ['publisher', 'label', 'buyer', 'channel'] as ReportDimension[],
    leads: '/operator/leads',
  },
  label_manager: {
    base: '/label_manager',
    groupings: ['publisher', 'channel'] as ReportDimension[],
    leads: null,
  },
}

/**
 * The dashboard of the operator (/operator/reports) and of a label's manager (/label_manager,
 * its label's publishers only): KPI tiles against the previous period, a time series, the
 * drop-off, the table by publisher, label, buyer or channel with a way into each row's leads,
 * and its exports. The same service, policy and query reading as GET /v1/reports/kpis and
 * /timeseries, so the page, its CSV and the API show the same figures to the same people.
 */
@inject()
export default class ReportsController {
  constructor(protected reports: ReportService) {}

  async show({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('ReportPolicy').authorize('view')
    const audience = audienceOf(principal)
    const query = await this.queryOf(principal, request)
    const [report, trend] = await Promise.all([
      this.reports.kpis(principal, query.kpis),
      this.reports.timeseries(principal, query.timeseries),
    ])
    return inertia.render('reports/dashboard', {
      report: KpiReportTransformer.transform(report),
      trend: TimeseriesTransformer.transform(trend),
      query: DashboardQueryTransformer.transform(query),
      leads: audience.leads ? leadLinks(report, query, audience.leads) : {},
      exports: dashboardExports(audience.base, query),
      groupings: audience.groupings,
      scope: await scopeWords(principal),
      next_step: principal.isOperator
        ? {
            text: 'Leads show here as your publishers send them. Invite a publisher and set it live, or choose a longer period above.',
            href: '/operator/publishers',
            label: 'Publishers',
          }
        : null,
    })
  }

  /** …/kpis?format=csv|json: the table of the page, as a file. */
  async kpis(ctx: HttpContext) {
    await ctx.bouncer.with('ReportPolicy').authorize('view')
    const query = await this.queryOf(ctx.principal, ctx.request)
    const report = await this.reports.kpis(ctx.principal, query.kpis)
    const json = KpiReportTransformer.transform(report)
    return download(ctx, `kpis-${query.kpis.groupBy}`, query, report, json)
  }

  /** …/timeseries?format=csv|json: the chart of the page, as a file. */
  async timeseries(ctx: HttpContext) {
    await ctx.bouncer.with('ReportPolicy').authorize('view')
    const query = await this.queryOf(ctx.principal, ctx.request)
    const series = await this.reports.timeseries(ctx.principal, query.timeseries)
    const json = TimeseriesTransformer.transform(series)
    return download(ctx, `timeseries-${series.metric}`, query, series, json)
  }

  /**
   * The address read; a grouping or a figure this audience may not use falls back to its
   * first grouping and to the volume, as a junk address does.
   */
  protected async queryOf(principal: Principal, request: HttpContext['request']) {
    const { groupings } = audienceOf(principal)
    const query = await dashboardQueryOf(this.reports, principal, request, {
      groupBy: groupings[0],
    })
    if (!groupings.includes(query.kpis.groupBy!)) query.kpis.groupBy = groupings[0]
    const hidden: string[] = HIDDEN[reportAudienceOf(principal)]
    if (hidden.includes(query.timeseries.metric)) query.timeseries.metric = 'volume'
    return query
  }
}

function audienceOf(principal: Principal) {
  return principal.kind === 'label_manager' ? AUDIENCES.label_manager : AUDIENCES.operator
}

/** Whom the figures cover, in words: the label manager's label, or every label. */
async function scopeWords(principal: Principal) {
  if (principal.kind !== 'label_manager') return 'Every label'
  const label = principal.labelId ? await Label.find(principal.labelId) : null
  return label?.name ?? 'Your label'
}

/**
 * Each row's leads in the leads explorer, with the period and environment set. The explorer
 * filters publishers and labels by slug (a report names them by slug), buyers by id,
 * channels by name.
 */
function leadLinks(report: KpiReport, query: DashboardQuery, explorer: string) {
  const groupBy = query.kpis.groupBy
  const period = {
    from: query.kpis.from.toISOString(),
    to: query.kpis.to.toISOString(),
    environment: query.kpis.filters.environment ?? 'live',
  }
  const links: Record<string, string> = {}
  for (const row of report.rows) {
    if (!row.key) continue
    let filter: Record<string, string> | null = null
    if (groupBy === 'buyer') filter = { buyer_id: row.key }
    else if (groupBy === 'channel') filter = { channel: row.key }
    else if (groupBy && row.name) filter = { [groupBy]: row.name }
    if (filter) links[row.key] = `${explorer}?${new URLSearchParams({ ...filter, ...period })}`
  }
  return links
}

/** A report as a file: JSON as the API answers it (`json`, its transformer's), or the API's CSV. */
async function download(
  { response, serialize }: HttpContext,
  name: string,
  query: DashboardQuery,
  report: Parameters<typeof reportCsv>[0],
  json: ItemContract<KpiReportTransformer | TimeseriesTransformer, 1, 'toObject'>
) {
  const file = `report-${name}-${query.days.from}-${query.days.to}.${query.format}`
  response.header('Content-Disposition', `attachment; filename="${file}"`)
  response.header('Cache-Control', 'no-store')
  if (query.format === 'json') return response.json(await serialize(json))
  response.header('Content-Type', 'text/csv; charset=utf-8')
  return response.send(reportCsv(report))
}
