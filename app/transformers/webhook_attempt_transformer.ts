import { BaseTransformer } from '@adonisjs/core/transformers'
import type WebhookAttempt from '#models/webhook_attempt'
import { isoTime } from '#services/sql/timestamps'

/** One attempt of a delivery: when, the receiver's answer, how long it took, what went wrong. */
export default class WebhookAttemptTransformer extends BaseTransformer<WebhookAttempt> {
  toObject() {
    const attempt = this.resource
    return {
      attempt: attempt.attempt,
      trigger: attempt.trigger,
      started_at: isoTime(attempt.startedAt),
      succeeded: attempt.succeeded,
      status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      error_detail: attempt.errorDetail,
      response_excerpt: attempt.responseExcerpt,
    }
  }
}
