import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Closes the routing and upload producers last: providers shut down after the HTTP
 * server has stopped and its requests in flight have answered, so the leads
 * they accepted are queued for routing before the connections go.
 */
export default class QueueProvider {
  constructor(protected app: ApplicationService) {}

  async shutdown() {
    const { closeRoutingQueues } = await import('#services/routing/routing_queue')
    const { closeUploadQueue } = await import('#services/uploads/upload_queue')
    await Promise.all([closeRoutingQueues(), closeUploadQueue()])
  }
}
