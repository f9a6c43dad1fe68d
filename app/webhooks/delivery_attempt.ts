import { uuidv7 } from 'uuidv7'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import webhooksConfig from '#config/webhooks'
import type { SendOutcome } from '#webhooks/http_sender'
import { wakeRelay } from '#webhooks/fan_out'
import { type Decision, decide } from '#webhooks/retry_policy'
import {
  type EndpointRow,
  disableEndpoint,
  failsMostly,
  openCircuit,
  publishHealthEvent,
} from '#webhooks/endpoint_health'

/** A delivery a worker holds the lease on, with what it needs to send it. */
export type ClaimedDelivery = {
  id: string
  event_id: string
  event_type: string
  endpoint_id: string
  ordering_key: string | null
  attempt_count: number
  schedule_offset: number
  next_trigger: 'auto' | 'manual' | 'recover'
  url: string
  fifo: boolean
  endpoint_status: 'enabled' | 'disabled' | 'paused'
  paused_until: Date | null
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  payload: { event_id: string; type: string; created: string; data: unknown }
}

export type Claim = { kind: 'claimed'; delivery: ClaimedDelivery } | { kind: 'busy'; until: Date } | { kind: 'gone' }

/**
 * Takes the lease on attempt `attempt` of a delivery. Only one worker holds
 * it; a job for an attempt already made (a re-dispatch, a replayed job) finds
 * nothing to do, which is what makes delivery jobs idempotent.
 */
export async function claimDelivery(deliveryId: string, attempt: number, now: Date): Promise<Claim> {
  const result = await db.rawQuery(
    `UPDATE webhook_deliveries d SET locked_until = ?
       FROM webhook_endpoints e, outbox_events ev
      WHERE d.id = ? AND d.attempt_count = ? AND d.status IN ('pending', 'failed')
        AND (d.locked_until IS NULL OR d.locked_until < ?)
        AND e.id = d.endpoint_id AND ev.id = d.event_id
      RETURNING d.id, d.event_id, d.event_type, d.endpoint_id, d.ordering_key, d.attempt_count, d.schedule_offset,
                d.next_trigger, e.url, e.fifo, e.status AS endpoint_status, e.paused_until, e.secret,
                e.previous_secret, e.previous_secret_expires_at, ev.payload`,
    [new Date(now.getTime() + webhooksConfig.leaseMs), deliveryId, attempt - 1, now]
  )
  if (result.rows[0]) return { kind: 'claimed', delivery: result.rows[0] }

  const held = await db.rawQuery(
    `SELECT locked_until FROM webhook_deliveries
      WHERE id = ? AND attempt_count = ? AND status IN ('pending', 'failed') AND locked_until >= ?`,
    [deliveryId, attempt - 1, now]
  )
  return held.rows[0] ? { kind: 'busy', until: new Date(held.rows[0].locked_until) } : { kind: 'gone' }
}

/** Gives the lease back without an attempt (circuit open, FIFO turn not yet come). */
export async function releaseDelivery(delivery: ClaimedDelivery, requeue: boolean) {
  await db.rawQuery(
    `UPDATE webhook_deliveries SET locked_until = NULL ${requeue ? ', enqueued_at = NULL' : ''}
      WHERE id = ? AND attempt_count = ?`,
    [delivery.id, delivery.attempt_count]
  )
}

/** A delivery whose endpoint was disabled while it waited: it ends here, retryable later. */
export async function settleForDisabledEndpoint(delivery: ClaimedDelivery, now: Date) {
  await db.rawQuery(
    `UPDATE webhook_deliveries
        SET status = 'exhausted', next_attempt_at = NULL, enqueued_at = NULL, locked_until = NULL,
            last_error = COALESCE(last_error, 'endpoint_disabled'), updated_at = ?
      WHERE id = ? AND attempt_count = ?`,
    [now, delivery.id, delivery.attempt_count]
  )
}

/**
 * Half-open circuit: once the pause is over, exactly one delivery goes
 * through as a trial while the others keep waiting. Returns when the pause
 * ends if this delivery did not get the trial.
 */
export async function startTrial(endpointId: string, now: Date): Promise<Date | null> {
  const won = await db.rawQuery(
    `UPDATE webhook_endpoints SET paused_until = ?
      WHERE id = ? AND status = 'paused' AND paused_until <= ?
      RETURNING id`,
    [new Date(now.getTime() + webhooksConfig.leaseMs), endpointId, now]
  )
  if (won.rows[0]) return null
  const current = await db.rawQuery(`SELECT status, paused_until FROM webhook_endpoints WHERE id = ?`, [endpointId])
  const row = current.rows[0]
  if (!row || row.status !== 'paused') return null
  return new Date(row.paused_until)
}

/** FIFO endpoints: a later event of the same lead waits for the earlier ones. */
export async function waitsForEarlier(delivery: ClaimedDelivery) {
  if (!delivery.fifo || !delivery.ordering_key) return false
  const earlier = await db.rawQuery(
    `SELECT 1 FROM webhook_deliveries
      WHERE endpoint_id = ? AND ordering_key = ? AND id < ? AND status IN ('pending', 'failed') LIMIT 1`,
    [delivery.endpoint_id, delivery.ordering_key, delivery.id]
  )
  return earlier.rows.length > 0
}

export type Recorded = { decision: Decision; retryAt: Date | null; duplicate: boolean }

/**
 * Records an attempt and everything it decides, in one transaction: the
 * attempt row, the delivery's next state, and the endpoint's health (last
 * success, outage start, circuit breaker, 410 → disabled). A second record of
 * the same attempt (two workers after a lapsed lease) changes nothing.
 */
export async function recordAttempt(
  delivery: ClaimedDelivery,
  attempt: number,
  outcome: SendOutcome,
  startedAt: Date,
  now = new Date()
): Promise<Recorded> {
  let decision = decide(outcome, attempt - delivery.schedule_offset, webhooksConfig)

  return db.transaction(async (trx) => {
    const inserted = await trx.rawQuery(
      `INSERT INTO webhook_attempts
         (id, delivery_id, endpoint_id, attempt, trigger, started_at, succeeded, status_code, latency_ms, response_excerpt, error, error_detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (delivery_id, attempt) DO NOTHING
       RETURNING id`,
      [
        uuidv7(), delivery.id, delivery.endpoint_id, attempt, delivery.next_trigger, startedAt, outcome.ok,
        outcome.statusCode, outcome.latencyMs, outcome.excerpt, outcome.error, outcome.errorDetail,
      ] as any[]
    )
    if (inserted.rows.length === 0) return { decision, retryAt: null, duplicate: true }

    if (decision.kind === 'succeeded') {
      await noteSuccess(trx, delivery.endpoint_id, now)
    } else {
      const stillDeliverable = await noteFailure(trx, delivery.endpoint_id, decision, now)
      if (!stillDeliverable && decision.kind === 'retry') decision = { kind: 'exhausted' }
    }

    const retryAt = decision.kind === 'retry' ? new Date(now.getTime() + decision.delayMs) : null
    const status = { succeeded: 'succeeded', retry: 'failed', exhausted: 'exhausted', gone: 'exhausted' }[decision.kind]
    await trx.rawQuery(
      `UPDATE webhook_deliveries
          SET status = ?, attempt_count = ?, next_attempt_at = ?, enqueued_at = ?, locked_until = NULL,
              last_attempt_at = ?, last_status_code = ?, last_error = ?, next_trigger = 'auto',
              succeeded_at = COALESCE(?, succeeded_at), updated_at = ?
        WHERE id = ? AND attempt_count = ?`,
      [
        status, attempt, retryAt,
        // The worker enqueues the next attempt right after the commit; if that fails the sweeper notices.
        retryAt ? now : null,
        startedAt, outcome.statusCode, outcome.error,
        decision.kind === 'succeeded' ? now : null, now, delivery.id, attempt - 1,
      ] as any[]
    )
    return { decision, retryAt, duplicate: false }
  })
}

/**
 * A success ends an outage and closes a half-open circuit. Written only when
 * something changes (or once a second), so a busy endpoint's deliveries do
 * not queue up behind one row lock.
 */
async function noteSuccess(trx: TransactionClientContract, endpointId: string, now: Date) {
  const result = await trx.rawQuery(
    `UPDATE webhook_endpoints e
        SET last_success_at = ?, failing_since = NULL, failing_warned_at = NULL, consecutive_failures = 0,
            status = CASE WHEN e.status = 'paused' THEN 'enabled' ELSE e.status END,
            paused_until = CASE WHEN e.status = 'paused' THEN NULL ELSE e.paused_until END,
            circuit_trips = CASE WHEN e.status = 'paused' THEN 0 ELSE e.circuit_trips END,
            circuit_closed_at = CASE WHEN e.status = 'paused' THEN ? ELSE e.circuit_closed_at END
       FROM (SELECT id, failing_warned_at AS was_warned, status AS was_status FROM webhook_endpoints
              WHERE id = ? AND status <> 'disabled'
                AND (last_success_at IS NULL OR last_success_at < ? OR failing_since IS NOT NULL
                     OR consecutive_failures > 0 OR status = 'paused')
              FOR NO KEY UPDATE) old
      WHERE e.id = old.id
      RETURNING e.*, old.was_warned, old.was_status`,
    [now, now, endpointId, new Date(now.getTime() - 1000)]
  )
  const endpoint = result.rows[0]
  if (endpoint?.was_warned) await publishHealthEvent(trx, 'endpoint.recovered', endpoint, now, { reason: null })
  // The circuit closed: the deliveries it held back are due now.
  if (endpoint?.was_status === 'paused') await wakeRelay(trx)
}

/** Returns false when the endpoint can take no more attempts (disabled, now or before). */
async function noteFailure(trx: TransactionClientContract, endpointId: string, decision: Decision, now: Date) {
  const result = await trx.rawQuery(
    `UPDATE webhook_endpoints
        SET failing_since = COALESCE(failing_since, ?), last_failure_at = ?,
            consecutive_failures = consecutive_failures + 1, updated_at = ?
      WHERE id = ?
      RETURNING *`,
    [now, now, now, endpointId]
  )
  const endpoint: (EndpointRow & { circuit_closed_at: Date | null }) | undefined = result.rows[0]
  if (!endpoint || endpoint.status === 'disabled') return false
  if (decision.kind === 'gone') {
    await disableEndpoint(trx, endpointId, 'gone', now)
    return false
  }
  if (endpoint.status === 'paused') {
    // The half-open trial failed: pause again, for longer.
    await openCircuit(trx, endpoint, now)
    return true
  }
  const windowStart = new Date(now.getTime() - webhooksConfig.breaker.windowMs)
  const since = endpoint.circuit_closed_at && new Date(endpoint.circuit_closed_at) > windowStart ? new Date(endpoint.circuit_closed_at) : windowStart
  if (await failsMostly(trx, endpointId, since)) await openCircuit(trx, endpoint, now)
  return true
}
