import { BaseTransformer } from '@adonisjs/core/transformers'
import type WebhookEndpoint from '#models/webhook_endpoint'
import { isoTime } from '#services/sql/timestamps'

/** An endpoint without its secret (that is shown once, on creation and rotation). */
export default class WebhookEndpointTransformer extends BaseTransformer<WebhookEndpoint> {
  /** `ownerName`: whose endpoint it is, by name, for the operator's endpoint page. */
  constructor(
    endpoint: WebhookEndpoint,
    protected ownerName?: string | null
  ) {
    super(endpoint)
  }

  toObject() {
    const endpoint = this.resource
    return {
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description ?? null,
      events: endpoint.events,
      status: endpoint.status,
      owner: endpoint.ownerType,
      publisher_id: endpoint.publisherId ?? null,
      buyer_id: endpoint.buyerId ?? null,
      environment: endpoint.environment,
      fifo: endpoint.fifo ?? false,
      // A freshly created model only holds the columns it was given.
      rate_limit_per_second: endpoint.rateLimitPerSecond ?? null,
      disabled_reason: endpoint.disabledReason ?? null,
      disabled_at: isoTime(endpoint.disabledAt),
      paused_until: isoTime(endpoint.pausedUntil),
      failing_since: isoTime(endpoint.failingSince),
      last_success_at: isoTime(endpoint.lastSuccessAt),
      previous_secret_expires_at: isoTime(endpoint.previousSecretExpiresAt),
      created_at: isoTime(endpoint.createdAt),
      updated_at: isoTime(endpoint.updatedAt),
    }
  }

  withOwnerName() {
    return { ...this.toObject(), owner_name: this.ownerName ?? null }
  }
}
