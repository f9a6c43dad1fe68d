import { BaseTransformer } from '@adonisjs/core/transformers'
import type { KpiReport } from '#services/reports/types'

/** GET /v1/reports/kpis: the period's figures, its totals and a row per group, beside the previous period's. */
export default class KpiReportTransformer extends BaseTransformer<KpiReport> {
  toObject() {
    return this.pick(this.resource, [
      'period',
      'previous_period',
      'time_zone',
      'group_by',
      'totals',
      'rows',
    ])
  }
}
