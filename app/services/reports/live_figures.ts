import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
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

/** What a publisher's own read-only principal sees: what its dashboards show. */
const ownPrincipal = (publisherId: string) =>
  new Principal('publisher', new Set(['read']), 'live', 'system:live-feed', publisherId)

/**
 * The figures of a publisher's live dashboard (/publisher/dashboard): today in its label's
 * zone against yesterday, leads hour by hour, and its money, live environment only. One place
 * builds them, for the page's render and for the live feed's push alike, through the same
 * services and policies as GET /v1/reports/kpis and /v1/settlement: never a price, a revenue
 * or a margin.
 */
@inject()
export default class LiveFiguresService {
  constructor(
    protected reports: ReportService,
    protected settlements: SettlementService
  ) {}

  /** As `principal` (one of the publisher's people) sees them; `publisher` with its label. */
  figuresOf(principal: Principal, publisher: Publisher) {
    return this.read(principal, publisher, this.queriesOf(this.timeZoneOf(publisher)))
  }

  /**
   * For the live feed, which has no caller: each publisher's figures as its own principal sees
   * them, from a few statements however many publishers there are. The KPIs and trends of the
   * publishers sharing a zone come from one grouped reading each (`ReportService.ownKpisOf`,
   * `ownTimeseriesOf`), all settlements from one (`SettlementService.settlementsOf`). A
   * publisher the grouped KPIs leave out, or whose group's reading failed, is read alone; one
   * that cannot be read is logged and left out.
   */
  async figuresOfPublishers(publisherIds: string[]) {
    const figures = new Map<string, LiveFigures>()
    const publishers = await Publisher.query().whereIn('id', publisherIds).preload('label')
    // Read beside the KPIs and trends, awaited with them.
    const settling = this.settlements
      .settlementsOf(publishers)
      .catch(this.groupFailed<LiveFigures['settlement']>)
    const zones = Map.groupBy(publishers, (publisher) => this.timeZoneOf(publisher))
    for (const [timeZone, group] of zones) {
      const queries = this.queriesOf(timeZone)
      const ids = group.map((publisher) => publisher.id)
      const [settlements, reports, trends] = await Promise.all([
        settling,
        this.reports
          .ownKpisOf(ids, {
            from: queries.kpis.from,
            to: queries.kpis.to,
            timeZone,
            environment: 'live',
          })
          .catch(this.groupFailed<KpiReport>),
        this.reports
          .ownTimeseriesOf(ids, { ...queries.trend, timeZone, environment: 'live' })
          .catch(this.groupFailed<Timeseries>),
      ])
      // Alone only what the grouped readings lacked: a failed group's, or a quiet publisher's KPIs.
      for (const publisher of group) {
        try {
          figures.set(
            publisher.id,
            await this.read(ownPrincipal(publisher.id), publisher, queries, {
              report: reports.get(publisher.id),
              trend: trends.get(publisher.id),
              settlement: settlements.get(publisher.id),
            })
          )
        } catch (error) {
          logger.warn({ err: error, publisherId: publisher.id }, 'live figures: not read')
        }
      }
    }
    return figures
  }

  /** A grouped reading that failed: each publisher's own reading still answers. */
  private groupFailed<T>(error: unknown) {
    logger.warn({ err: error }, 'live figures: a grouped reading failed')
    return new Map<string, T>()
  }

  timeZoneOf(publisher: Publisher) {
    return publisher.label?.timeZone ?? 'UTC'
  }

  private async read(
    principal: Principal,
    publisher: Publisher,
    queries: ReturnType<LiveFiguresService['queriesOf']>,
    known: Partial<LiveFigures> = {}
  ): Promise<LiveFigures> {
    const [report, trend, settlement] = await Promise.all([
      known.report ?? this.reports.kpis(principal, queries.kpis),
      known.trend ?? this.reports.timeseries(principal, queries.trend),
      known.settlement ?? this.settlements.settlementOf(publisher),
    ])
    return { report, trend, settlement }
  }

  /** Today in the label's zone, against yesterday; read at each call as midnight moves it. */
  private queriesOf(timeZone: string) {
    const today = namedPeriod('today', timeZone)
    const filters = { environment: 'live' as const }
    return {
      kpis: { ...today, timeZone, filters },
      trend: { metric: 'volume' as const, interval: 'hour' as const, ...today, timeZone, filters },
    }
  }
}
