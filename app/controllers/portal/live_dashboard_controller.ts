import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SettlementService from '#services/money/settlement_service'
import ReportService from '#services/reports/report_service'
import { namedPeriod } from '#services/reports/report_period'
import { liveChannel } from '#services/reports/live_feed'

/**
 * A publisher's own dashboard (/publisher/dashboard): today's volume, acceptance and
 * rejection reasons, and its pending and payable money, live. A lead it sends reaches the
 * page over server-sent events (reports/live_feed.ts) as "changed"; the page then asks for
 * its figures again (an Inertia partial reload of `report`, `trend` and `settlement`),
 * through the same services and policies as GET /v1/reports/kpis and /v1/settlement, so it
 * never shows a price, a revenue or a margin.
 */
@inject()
export default class LiveDashboardController {
  constructor(
    protected reports: ReportService,
    protected settlements: SettlementService
  ) {}

  async show({ inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('ReportPolicy').authorize('view')
    await bouncer.with('SettlementPolicy').authorize('view')
    const publisher = await this.settlements.publisherFor(principal, undefined)
    await publisher.load('label')
    // Today in the label's zone, against yesterday; read again on every refresh.
    const timeZone = publisher.label?.timeZone ?? 'UTC'
    const today = () => namedPeriod('today', timeZone)
    const filters = { environment: 'live' as const }
    return inertia.render('reports/live', {
      publisher: { id: publisher.id, name: publisher.name },
      channel: liveChannel(publisher.id),
      time_zone: timeZone,
      report: () => this.reports.kpis(principal, { ...today(), timeZone, filters }),
      trend: () =>
        this.reports.timeseries(principal, {
          metric: 'volume',
          interval: 'hour',
          ...today(),
          timeZone,
          filters,
        }),
      settlement: () => this.settlements.settlementOf(publisher),
    })
  }
}
