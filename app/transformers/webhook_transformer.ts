import type { DateTime } from 'luxon'
import type WebhookEndpoint from '#models/webhook_endpoint'
import type WebhookDelivery from '#models/webhook_delivery'
import type WebhookAttempt from '#models/webhook_attempt'
import type WebhookRecovery from '#models/webhook_recovery'

const iso = (value: DateTime | null | undefined) => value?.toUTC().toISO() ?? null

/** An endpoint without its secret (that is shown once, on creation and rotation). */
export function endpointToJson(endpoint: WebhookEndpoint) {
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
    disabled_at: iso(endpoint.disabledAt),
    paused_until: iso(endpoint.pausedUntil),
    failing_since: iso(endpoint.failingSince),
    last_success_at: iso(endpoint.lastSuccessAt),
    previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
    created_at: iso(endpoint.createdAt),
    updated_at: iso(endpoint.updatedAt),
  }
}

export function deliveryToJson(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    endpoint_id: delivery.endpointId,
    type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attemptCount,
    next_attempt_at: iso(delivery.nextAttemptAt),
    next_trigger: delivery.nextTrigger,
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_response_status: delivery.lastStatusCode,
    last_error: delivery.lastError,
    succeeded_at: iso(delivery.succeededAt),
    event_created_at: iso(delivery.eventCreatedAt),
    created_at: iso(delivery.createdAt),
  }
}

export function attemptToJson(attempt: WebhookAttempt) {
  return {
    attempt: attempt.attempt,
    trigger: attempt.trigger,
    started_at: iso(attempt.startedAt),
    succeeded: attempt.succeeded,
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
    error_detail: attempt.errorDetail,
    response_excerpt: attempt.responseExcerpt,
  }
}

/** A delivery with every attempt, oldest first: the delivery log of one event at one endpoint. */
export function deliveryWithAttemptsToJson(delivery: WebhookDelivery) {
  return { ...deliveryToJson(delivery), attempt_log: delivery.attempts.map(attemptToJson) }
}

export function recoveryToJson(task: WebhookRecovery) {
  return {
    id: task.id,
    kind: task.kind,
    status: task.status,
    endpoint_id: task.endpointId ?? null,
    trigger: task.trigger,
    filter: task.filter,
    scheduled: task.scheduled ?? 0,
    error: task.error ?? null,
    created_at: iso(task.createdAt),
    started_at: iso(task.startedAt),
    completed_at: iso(task.completedAt),
  }
}
