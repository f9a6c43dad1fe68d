import { uuidv7 } from 'uuidv7'
import type { Queue } from 'bullmq'
import db from '@adonisjs/lucid/services/db'
import type { Logger } from '@adonisjs/core/logger'
import webhooksConfig from '#config/webhooks'
import type { HttpSender } from '#services/webhooks/http_sender'
import { signatureHeaders } from '#services/webhooks/signing'
import { signingSecrets } from '#services/webhooks/secrets'
import { assertValidEvent } from '#services/webhooks/event_registry'
import { deliveryJobId } from '#services/webhooks/delivery_job'
import {
  disableEndpoint,
  enableEndpoint,
  publishHealthEvent,
} from '#services/webhooks/endpoint_health'
import type { EndpointRow } from '#services/webhooks/endpoint_row'
import { createMissingDeliveries, rescheduleWhere } from '#services/webhooks/rescheduling'
import { transaction } from '#services/sql/transaction'
import { withTimeout } from '#services/webhooks/relay'

const LIVE_JOB_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children'])

/**
 * The periodic half of the worker: re-enqueues deliveries whose job went
 * missing (Redis lost it, a worker died), runs recovery and bulk-retry
 * tasks, applies the health rules and probes disabled endpoints. Every step
 * claims its rows, so several worker processes can sweep side by side.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private tasksWaiting = false

  constructor(
    private queue: Queue,
    private sender: HttpSender,
    private logger: Logger,
    private onWork: () => void
  ) {}

  start() {
    this.timer = setInterval(() => this.tick(), webhooksConfig.sweeper.intervalMs)
    this.tick()
  }

  async stop() {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }

  tick() {
    if (this.running) return
    this.running = this.sweep().finally(() => this.done())
  }

  /** A task was queued: run tasks now rather than at the next tick. */
  runTasksSoon() {
    if (this.running) return void (this.tasksWaiting = true)
    this.running = this.runTasks()
      .catch((error) => this.logger.warn({ err: error }, 'webhook task run failed'))
      .finally(() => this.done())
  }

  private done() {
    this.running = null
    if (this.tasksWaiting && this.timer) {
      this.tasksWaiting = false
      this.runTasksSoon()
    }
  }

  async sweep() {
    for (const step of [
      this.requeueStale,
      this.runTasks,
      this.warnFailing,
      this.disableFailing,
      this.probeDisabled,
      this.forgetOldSecrets,
    ]) {
      try {
        await step.call(this)
      } catch (error) {
        this.logger.warn({ err: error, step: step.name }, 'webhook sweep step failed')
      }
    }
  }

  /** Enqueued long ago, still not attempted, and its job is not alive in Redis: hand it to the relay again. */
  async requeueStale() {
    const now = new Date()
    const stale = await db.rawQuery(
      `SELECT id, attempt_count FROM webhook_deliveries
        WHERE enqueued_at IS NOT NULL AND status IN ('pending', 'failed') AND next_attempt_at < ?
          AND (locked_until IS NULL OR locked_until < ?)
        ORDER BY next_attempt_at LIMIT 500`,
      [new Date(now.getTime() - webhooksConfig.sweeper.staleAfterMs), now]
    )
    let requeued = 0
    for (const row of stale.rows) {
      const jobId = deliveryJobId(row.id, row.attempt_count + 1)
      const state = await withTimeout(this.queue.getJobState(jobId), 5000)
      if (LIVE_JOB_STATES.has(state)) continue
      if (state !== 'unknown') await withTimeout(this.queue.remove(jobId), 5000)
      const updated = await db.rawQuery(
        `UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id = ? AND attempt_count = ? AND enqueued_at IS NOT NULL`,
        [row.id, row.attempt_count]
      )
      requeued += updated.rowCount ?? 0
    }
    if (requeued > 0) {
      this.logger.info({ requeued }, 're-enqueueing webhook deliveries whose jobs were lost')
      this.onWork()
    }
  }

  /** Recovery windows and bulk retries, one task at a time, each in one transaction. */
  async runTasks() {
    for (;;) {
      const now = new Date()
      const claimed = await db.rawQuery(
        `UPDATE webhook_recoveries SET status = 'running', started_at = ?
          WHERE id = (SELECT id FROM webhook_recoveries
                       WHERE status = 'queued' OR (status = 'running' AND started_at < ?)
                       ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [now, new Date(now.getTime() - 10 * 60_000)]
      )
      const task = claimed.rows[0]
      if (!task) return
      try {
        const scheduled = await transaction(async (trx) => {
          const count =
            task.kind === 'recover'
              ? await this.recover(trx, task, now)
              : await this.bulkRetry(trx, task, now)
          await trx.rawQuery(
            `UPDATE webhook_recoveries SET status = 'completed', scheduled = ?, completed_at = ? WHERE id = ?`,
            [count, new Date(), task.id]
          )
          return count
        })
        if (scheduled > 0) this.onWork()
      } catch (error) {
        this.logger.error({ err: error, task: task.id }, 'webhook recovery task failed')
        await db.rawQuery(
          `UPDATE webhook_recoveries SET status = 'failed', error = ?, completed_at = ? WHERE id = ?`,
          [String((error as Error).message).slice(0, 500), new Date(), task.id]
        )
      }
    }
  }

  private async recover(trx: any, task: any, now: Date) {
    const since = new Date(task.filter.since)
    const until = new Date(task.filter.until)
    const rescheduled = await rescheduleWhere(
      trx,
      {
        sql: `d.endpoint_id = :endpointId AND d.status IN ('failed', 'exhausted') AND d.event_created_at >= :since AND d.event_created_at < :until`,
        bindings: { endpointId: task.endpoint_id, since, until },
      },
      'recover',
      now
    )
    return rescheduled + (await createMissingDeliveries(trx, task.endpoint_id, since, until, now))
  }

  private async bulkRetry(trx: any, task: any, now: Date) {
    const filter = task.filter
    const clauses = [`d.status = :status`, `e.environment = :environment`]
    const bindings: Record<string, unknown> = {
      status: filter.status ?? 'exhausted',
      environment: task.environment,
    }
    if (task.owner_type === 'publisher') {
      clauses.push(`e.owner_type = 'publisher' AND e.publisher_id = :publisherId`)
      bindings.publisherId = task.publisher_id
    }
    if (task.owner_type === 'buyer') {
      clauses.push(`e.owner_type = 'buyer' AND e.buyer_id = :buyerId`)
      bindings.buyerId = task.buyer_id
    }
    if (filter.endpoint_id)
      (clauses.push('d.endpoint_id = :endpointId'), (bindings.endpointId = filter.endpoint_id))
    if (filter.type) (clauses.push('d.event_type = :type'), (bindings.type = filter.type))
    if (filter.from)
      (clauses.push('d.event_created_at >= :from'), (bindings.from = new Date(filter.from)))
    if (filter.to) (clauses.push('d.event_created_at < :to'), (bindings.to = new Date(filter.to)))
    return rescheduleWhere(trx, { sql: clauses.join(' AND '), bindings }, 'manual', now)
  }

  /** A day before the health rule disables an endpoint, its owner hears `endpoint.failing`. */
  async warnFailing() {
    const { disableAfterMs, warnBeforeMs } = webhooksConfig.health
    const now = new Date()
    const due = await db.rawQuery(
      `SELECT id FROM webhook_endpoints
        WHERE status IN ('enabled', 'paused') AND failing_warned_at IS NULL AND failing_since <= ? LIMIT 100`,
      [new Date(now.getTime() - (disableAfterMs - warnBeforeMs))]
    )
    for (const { id } of due.rows) {
      await transaction(async (trx) => {
        const warned = await trx.rawQuery(
          `UPDATE webhook_endpoints SET failing_warned_at = ?, updated_at = ?
            WHERE id = ? AND failing_warned_at IS NULL AND failing_since IS NOT NULL RETURNING *`,
          [now, now, id]
        )
        const endpoint: EndpointRow | undefined = warned.rows[0]
        if (!endpoint) return
        const disableAt = new Date(new Date(endpoint.failing_since!).getTime() + disableAfterMs)
        await publishHealthEvent(trx, 'endpoint.failing', endpoint, now, {
          reason: 'no_success',
          disableAt,
        })
      })
    }
  }

  /** No success for the configured time (5 days): the endpoint is disabled. */
  async disableFailing() {
    const now = new Date()
    const threshold = new Date(now.getTime() - webhooksConfig.health.disableAfterMs)
    const due = await db.rawQuery(
      `SELECT id FROM webhook_endpoints WHERE status IN ('enabled', 'paused') AND failing_since <= ? LIMIT 100`,
      [threshold]
    )
    for (const { id } of due.rows) {
      await transaction((trx) => disableEndpoint(trx, id, 'failing', now, threshold))
    }
  }

  /**
   * Disabled by the health rules or a 410, an endpoint is probed with a signed
   * `webhook.ping`. A 2xx re-enables it and recovers its outage window:
   * deliveries that failed and events it missed while disabled.
   */
  async probeDisabled() {
    const now = new Date()
    const claimed = await db.rawQuery(
      `UPDATE webhook_endpoints SET last_probe_at = ?
        WHERE id IN (SELECT id FROM webhook_endpoints
                      WHERE status = 'disabled' AND disabled_reason IN ('failing', 'gone')
                          AND (last_probe_at IS NULL OR last_probe_at <= ?)
                      ORDER BY last_probe_at NULLS FIRST
                      LIMIT 20 FOR NO KEY UPDATE SKIP LOCKED)
        RETURNING *`,
      [now, new Date(now.getTime() - webhooksConfig.health.probeIntervalMs)]
    )
    // Side by side: one receiver that hangs until the timeout must not hold back the others'.
    await Promise.all(
      claimed.rows.map((endpoint: any) =>
        this.probe(endpoint).catch((error) =>
          this.logger.warn({ err: error, endpoint: endpoint.id }, 'webhook probe failed')
        )
      )
    )
  }

  private async probe(endpoint: any) {
    const envelope = {
      event_id: uuidv7(),
      type: 'webhook.ping',
      created: new Date().toISOString(),
      data: { endpoint_id: endpoint.id, reason: 'probe' },
    }
    assertValidEvent(envelope)
    const body = JSON.stringify(envelope)
    const startedAt = new Date()
    const headers = {
      ...signatureHeaders(
        signingSecrets(endpoint, startedAt),
        envelope.event_id,
        Math.floor(Date.now() / 1000),
        body
      ),
      'x-leadgate-event-type': 'webhook.ping',
    }
    const outcome = await this.sender.send(endpoint.url, headers, body)
    await transaction(async (trx) => {
      await trx.table('webhook_attempts').insert({
        id: uuidv7(),
        delivery_id: null,
        endpoint_id: endpoint.id,
        attempt: 0,
        trigger: 'probe',
        started_at: startedAt,
        succeeded: outcome.ok,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        response_excerpt: outcome.excerpt,
        error: outcome.error,
        error_detail: outcome.errorDetail,
      })
      if (!outcome.ok) return
      const now = new Date()
      const outageStart = new Date(endpoint.failing_since ?? endpoint.disabled_at ?? now)
      // Deliveries of events from shortly before the first failure were still being retried then.
      const retrySpan = webhooksConfig.retrySchedule.reduce((sum, delay) => sum + delay, 0)
      const since = new Date(
        Math.max(outageStart.getTime() - retrySpan, new Date(endpoint.created_at).getTime())
      )
      const enabled = await enableEndpoint(trx, endpoint.id, now)
      if (!enabled) return
      await publishHealthEvent(trx, 'endpoint.recovered', enabled, now, {
        reason: 'probe_answered',
      })
      await trx.table('webhook_recoveries').insert({
        id: uuidv7(),
        kind: 'recover',
        endpoint_id: endpoint.id,
        owner_type: endpoint.owner_type,
        publisher_id: endpoint.publisher_id,
        buyer_id: endpoint.buyer_id,
        environment: endpoint.environment,
        filter: JSON.stringify({ since: since.toISOString(), until: now.toISOString() }),
        trigger: 'probe',
        status: 'queued',
        scheduled: 0,
        requested_by: 'system:webhook-probe',
        created_at: now,
      })
    })
  }

  /** A rotated-out secret is dropped once its overlap is over. */
  async forgetOldSecrets() {
    await db.rawQuery(
      `UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_expires_at = NULL
        WHERE previous_secret IS NOT NULL AND previous_secret_expires_at < ?`,
      [new Date()]
    )
  }
}
