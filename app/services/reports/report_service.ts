import { inject } from '@adonisjs/core'
import type Principal from '#auth/principal'
import type { KpiQuery, KpiReport, Timeseries, TimeseriesQuery } from '#services/reports/types'

/**
 * KPIs and time series over `lead_facts`, read from the hourly rollups with the
 * partial edge hours read directly (docs/reports.md).
 */
@inject()
export default class ReportService {
  async kpis(_principal: Principal, _query: KpiQuery): Promise<KpiReport> {
    throw new Error('not implemented yet')
  }

  async timeseries(_principal: Principal, _query: TimeseriesQuery): Promise<Timeseries> {
    throw new Error('not implemented yet')
  }
}
