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

/**
 * Publishers read at once in a batch. Each one's trend and settlement are about ten
 * statements; a few at a time leave the database pool (20 connections) room for intake.
 */
const PARALLEL = 3

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
   * them. The KPIs of the publishers sharing a zone come from one grouped reading
   * (`ReportService.ownKpisOf`). A publisher that cannot be read is logged and left out.
   */
  async figuresOfPublishers(publisherIds: string[]) {
    const figures = new Map<string, LiveFigures>()
    const publishers = await Publisher.query().whereIn('id', publisherIds).preload('label')
    const zones = Map.groupBy(publishers, (publisher) => this.timeZoneOf(publisher))
    for (const [timeZone, group] of zones) {
      const queries = this.queriesOf(timeZone)
      const { kpis } = queries
      const reports = await this.reports
        .ownKpisOf(
          group.map((publisher) => publisher.id),
          { from: kpis.from, to: kpis.to, timeZone, environment: 'live' }
        )
        .catch((error) => {
          // Each publisher's own reading below still answers.
          logger.warn({ err: error }, 'live figures: the grouped reading failed')
          return new Map<string, KpiReport>()
        })
      const waiting = [...group]
      const worker = async () => {
        for (let publisher = waiting.shift(); publisher; publisher = waiting.shift()) {
          try {
            const own = ownPrincipal(publisher.id)
            const report = reports.get(publisher.id)
            figures.set(publisher.id, await this.read(own, publisher, queries, report))
          } catch (error) {
            logger.warn({ err: error, publisherId: publisher.id }, 'live figures: not read')
          }
        }
      }
      await Promise.all(Array.from({ length: PARALLEL }, worker))
    }
    return figures
  }

  timeZoneOf(publisher: Publisher) {
    return publisher.label?.timeZone ?? 'UTC'
  }

  private async read(
    principal: Principal,
    publisher: Publisher,
    queries: ReturnType<LiveFiguresService['queriesOf']>,
    report?: KpiReport
  ): Promise<LiveFigures> {
    const [kpiReport, trend, settlement] = await Promise.all([
      report ?? this.reports.kpis(principal, queries.kpis),
      this.reports.timeseries(principal, queries.trend),
      this.settlements.settlementOf(publisher),
    ])
    return { report: kpiReport, trend, settlement }
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
