import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import WebhookDeliveryService from '#services/webhooks/delivery_service'

@inject()
export default class EventsController {
  constructor(protected deliveries: WebhookDeliveryService) {}

  /** Sends one event again, same event_id, to every endpoint of the caller subscribed to it. */
  async replay({ params, response, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    return response.accepted(await this.deliveries.replay(principal, params.event_id))
  }
}
