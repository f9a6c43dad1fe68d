import { BaseTransformer } from '@adonisjs/core/transformers'
import type { Timeseries } from '#services/reports/types'

/** GET /v1/reports/timeseries: one figure hour by hour or day by day, beside the previous period's. */
export default class TimeseriesTransformer extends BaseTransformer<Timeseries> {
  toObject() {
    return this.pick(this.resource, ['metric', 'interval', 'time_zone', 'period', 'points'])
  }
}
