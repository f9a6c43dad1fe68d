import { inject } from '@adonisjs/core'
import Principal from '#auth/principal'
import Publisher from '#models/publisher'
import SettlementService from '#services/money/settlement_service'
import ReportService from '#services/reports/report_service'
import { namedPeriod } from '#services/reports/report_period'
import type { KpiReport, Timeseries } from '#services/reports/types'

export type LiveFigures = {
  report: KpiReport
  trend: Timeseries
  settlement: Awaited<ReturnType<SettlementService['settlementOf']>>
}

/**
 * The figures of a publisher's live dashboard (/publisher/dashboard): today in its label's
 * zone against yesterday, leads hour by hour, and its money, live environment only. One place
 * builds them, for the page's first render and for the live feed's push alike, through the
 * same services and policies as GET /v1/reports/kpis and /v1/settlement: never a price, a
 * revenue or a margin.
 */
@inject()
export default class LiveFiguresService {
  constructor(
    protected reports: ReportService,
    protected settlements: SettlementService
  ) {}

  /** As `principal` (one of the publisher's people) sees them; `publisher` with its label. */
  async figuresOf(principal: Principal, publisher: Publisher): Promise<LiveFigures> {
    const timeZone = this.timeZoneOf(publisher)
    // Read at each call: "today" moves at the label's midnight.
    const today = namedPeriod('today', timeZone)
    const filters = { environment: 'live' as const }
    const [report, trend, settlement] = await Promise.all([
      this.reports.kpis(principal, { ...today, timeZone, filters }),
      this.reports.timeseries(principal, {
        metric: 'volume',
        interval: 'hour',
        ...today,
        timeZone,
        filters,
      }),
      this.settlements.settlementOf(publisher),
    ])
    return { report, trend, settlement }
  }

  /**
   * For the live feed, which has no caller: what the publisher's own read-only principal sees,
   * which is what every one of its dashboards shows (the channel admits no one else but the
   * operator, who is shown the publisher's view there too).
   */
  async figuresOfPublisher(publisherId: string) {
    const publisher = await Publisher.findOrFail(publisherId)
    await publisher.load('label')
    const principal = new Principal(
      'publisher',
      new Set(['read']),
      'live',
      'system:live-feed',
      publisherId
    )
    return this.figuresOf(principal, publisher)
  }

  timeZoneOf(publisher: Publisher) {
    return publisher.label?.timeZone ?? 'UTC'
  }
}
