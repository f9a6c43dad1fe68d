import app from '@adonisjs/core/services/app'
import { type RoutingWorkerOptions, startRoutingWorker } from '#services/routing/routing_queue'
import SaleRunner from '#services/selling/sale_runner'

/**
 * The routing queue's worker, each lead sold to the end: routing's decisions and the posts into
 * buyers' own systems between them (`SaleRunner`). What `node ace queue:work` runs.
 */
export async function startSaleWorker(options: Omit<RoutingWorkerOptions, 'sell'> = {}) {
  const runner = await app.container.make(SaleRunner)
  return startRoutingWorker({ ...options, sell: (leadId, opts) => runner.sell(leadId, opts) })
}
