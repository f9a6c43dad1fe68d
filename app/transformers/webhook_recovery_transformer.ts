import { BaseTransformer } from '@adonisjs/core/transformers'
import type WebhookRecovery from '#models/webhook_recovery'
import { isoTime } from '#services/sql/timestamps'

/** A recovery or bulk retry task: what it covers, how far it went. */
export default class WebhookRecoveryTransformer extends BaseTransformer<WebhookRecovery> {
  toObject() {
    const task = this.resource
    return {
      id: task.id,
      kind: task.kind,
      status: task.status,
      endpoint_id: task.endpointId ?? null,
      trigger: task.trigger,
      filter: task.filter,
      scheduled: task.scheduled ?? 0,
      error: task.error ?? null,
      created_at: isoTime(task.createdAt),
      started_at: isoTime(task.startedAt),
      completed_at: isoTime(task.completedAt),
    }
  }
}
