import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SettlementService from '#services/money/settlement_service'
import LiveFiguresService, { type LiveFigures } from '#services/reports/live_figures'
import { liveChannel } from '#services/reports/live_feed'
import KpiReportTransformer from '#transformers/kpi_report_transformer'
import SettlementTransformer from '#transformers/settlement_transformer'
import TimeseriesTransformer from '#transformers/timeseries_transformer'

/**
 * A publisher's own dashboard (/publisher/dashboard): today's volume, acceptance and
 * rejection reasons, and its pending and payable money, live. The live feed
 * (reports/live_feed.ts) pushes the same figures to the open page over server-sent events;
 * a page that hears a change without them asks again here (an Inertia partial reload of
 * `report`, `trend` and `settlement`). Both read them through `LiveFiguresService`, so the
 * page never shows a price, a revenue or a margin.
 */
@inject()
export default class LiveDashboardController {
  constructor(
    protected live: LiveFiguresService,
    protected settlements: SettlementService
  ) {}

  async show({ inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('ReportPolicy').authorize('view')
    await bouncer.with('SettlementPolicy').authorize('view')
    const publisher = await this.settlements.publisherFor(principal, undefined)
    await publisher.load('label')
    // One reading for the three props, whichever of them the visit asks for.
    let reading: Promise<LiveFigures> | undefined
    const figures = () => (reading ??= this.live.figuresOf(principal, publisher))
    return inertia.render('reports/live', {
      publisher: { id: publisher.id, name: publisher.name },
      channel: liveChannel(publisher.id),
      time_zone: this.live.timeZoneOf(publisher),
      report: () => figures().then(({ report }) => KpiReportTransformer.transform(report)),
      trend: () => figures().then(({ trend }) => TimeseriesTransformer.transform(trend)),
      settlement: () =>
        figures().then(({ settlement }) => SettlementTransformer.transform(settlement)),
    })
  }
}
