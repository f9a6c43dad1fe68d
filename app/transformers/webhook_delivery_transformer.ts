import { BaseTransformer } from '@adonisjs/core/transformers'
import type WebhookDelivery from '#models/webhook_delivery'
import { isoTime } from '#services/sql/timestamps'
import WebhookAttemptTransformer from '#transformers/webhook_attempt_transformer'

export default class WebhookDeliveryTransformer extends BaseTransformer<WebhookDelivery> {
  /** `endpointUrls`: the URL of each endpoint, for a lead's page (null where the reader has none). */
  constructor(
    delivery: WebhookDelivery,
    protected endpointUrls?: ReadonlyMap<string, string>
  ) {
    super(delivery)
  }

  toObject() {
    const delivery = this.resource
    return {
      id: delivery.id,
      event_id: delivery.eventId,
      endpoint_id: delivery.endpointId,
      type: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attemptCount,
      next_attempt_at: isoTime(delivery.nextAttemptAt),
      next_trigger: delivery.nextTrigger,
      last_attempt_at: isoTime(delivery.lastAttemptAt),
      last_response_status: delivery.lastStatusCode,
      last_error: delivery.lastError,
      succeeded_at: isoTime(delivery.succeededAt),
      event_created_at: isoTime(delivery.eventCreatedAt),
      created_at: isoTime(delivery.createdAt),
    }
  }

  /** A delivery with every attempt, oldest first: the delivery log of one event at one endpoint. */
  withAttempts() {
    return {
      ...this.toObject(),
      attempt_log: this.resource.attempts.map((attempt) =>
        new WebhookAttemptTransformer(attempt).toObject()
      ),
    }
  }

  /** A delivery on a lead's page: where it went. */
  withEndpointUrl() {
    return {
      ...this.toObject(),
      endpoint_url: this.endpointUrls?.get(this.resource.endpointId) ?? null,
    }
  }
}
