import { uuidv7 } from 'uuidv7'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import webhooksConfig from '#config/webhooks'
import type { SendOutcome } from '#services/webhooks/http_sender'
import { wakeRelay } from '#services/webhooks/fan_out'
import { Coalescer } from '#services/platform/coalescer'
import { type Column, rowsOf } from '#services/sql/insert_together'
import { type Decision, decide } from '#services/webhooks/retry_policy'
import type { EndpointRow } from '#services/webhooks/endpoint_row'
import { transaction } from '#services/sql/transaction'
import {
  disableEndpoint,
  failsMostly,
  openCircuit,
  publishHealthEvent,
} from '#services/webhooks/endpoint_health'

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
  /** The adapter that sends for a plugin installation's endpoint; null for a signed POST. */
  plugin: string | null
  fifo: boolean
  endpoint_status: 'enabled' | 'disabled' | 'paused'
  paused_until: Date | null
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  payload: { event_id: string; type: string; created: string; data: unknown }
}

export type Claim =
  | { kind: 'claimed'; delivery: ClaimedDelivery }
  | { kind: 'busy'; until: Date }
  | { kind: 'gone' }
  | { kind: 'foreign' }

/**
 * Takes the lease on attempt `attempt` of a delivery. Only one worker holds
 * it; a job for an attempt already made (a re-dispatch, a replayed job) finds
 * nothing to do, which is what makes delivery jobs idempotent.
 */
export async function claimDelivery(
  deliveryId: string,
  attempt: number,
  now: Date
): Promise<Claim> {
  const claimed = await claims.call({ id: deliveryId, attempt, now })
  if (claimed) return { kind: 'claimed', delivery: claimed }

  const held = await db.rawQuery(
    `SELECT locked_until, attempt_count = ? AND status IN ('pending', 'failed')
            AND locked_until >= ? AS busy
       FROM webhook_deliveries WHERE id = ?`,
    [attempt - 1, now, deliveryId]
  )
  const row = held.rows[0]
  // No such delivery here: the job is another deployment's that shares this Redis, not done work.
  if (!row) return { kind: 'foreign' }
  return row.busy ? { kind: 'busy', until: new Date(row.locked_until) } : { kind: 'gone' }
}

const CLAIM_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['attempt', 'int'],
]

/**
 * Claims of concurrent jobs go to Postgres together: one statement for the lot.
 * The batch is a VALUES list, whose length the planner sees, so it probes the
 * deliveries by key (a JSON batch, guessed at 100 rows, was hash-joined
 * against a scan of the whole table).
 */
const claims = new Coalescer<
  { id: string; attempt: number; now: Date },
  ClaimedDelivery | undefined
>(async (inputs) => {
  const now = inputs[0].now
  const batch = rowsOf(CLAIM_COLUMNS, inputs)
  const result = await db.rawQuery(
    `UPDATE webhook_deliveries d SET locked_until = ?
       FROM ${batch.from}, webhook_endpoints e, outbox_events ev
      WHERE d.id = v.id AND d.attempt_count = v.attempt - 1 AND d.status IN ('pending', 'failed')
        AND (d.locked_until IS NULL OR d.locked_until < ?)
        AND e.id = d.endpoint_id AND ev.id = d.event_id
      RETURNING d.id, d.event_id, d.event_type, d.endpoint_id, d.ordering_key, d.attempt_count, d.schedule_offset,
                d.next_trigger, e.url, e.plugin, e.fifo, e.status AS endpoint_status, e.paused_until, e.secret,
                e.previous_secret, e.previous_secret_expires_at, ev.payload`,
    [new Date(now.getTime() + webhooksConfig.leaseMs), ...batch.bindings, now]
  )
  const byId = new Map<string, ClaimedDelivery>(
    result.rows.map((row: ClaimedDelivery) => [row.id, row])
  )
  return inputs.map((input) => byId.get(input.id))
})

/**
 * Gives the lease back without an attempt, for the relay to hand out again
 * (FIFO turn not yet come), not before `dueAt` (circuit open) so the relay
 * does not look at it on every pass meanwhile.
 */
export async function releaseDelivery(delivery: ClaimedDelivery, dueAt?: Date) {
  await db.rawQuery(
    `UPDATE webhook_deliveries
        SET locked_until = NULL, enqueued_at = NULL, next_attempt_at = GREATEST(next_attempt_at, ?)
      WHERE id = ? AND attempt_count = ?`,
    [dueAt ?? new Date(0), delivery.id, delivery.attempt_count]
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
  const current = await db.rawQuery(
    `SELECT status, paused_until FROM webhook_endpoints WHERE id = ?`,
    [endpointId]
  )
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
  if (decision.kind === 'succeeded')
    return recordSuccess(delivery, attempt, outcome, startedAt, now)

  return transaction(async (trx) => {
    const inserted = await trx.rawQuery(
      `INSERT INTO webhook_attempts
         (id, delivery_id, endpoint_id, attempt, trigger, started_at, succeeded, status_code, latency_ms, response_excerpt, error, error_detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (delivery_id, attempt) DO NOTHING
       RETURNING id`,
      [
        uuidv7(),
        delivery.id,
        delivery.endpoint_id,
        attempt,
        delivery.next_trigger,
        startedAt,
        outcome.ok,
        outcome.statusCode,
        outcome.latencyMs,
        outcome.excerpt,
        outcome.error,
        outcome.errorDetail,
      ] as any[]
    )
    if (inserted.rows.length === 0) return { decision, retryAt: null, duplicate: true }

    const stillDeliverable = await noteFailure(trx, delivery.endpoint_id, decision, {
      startedAt,
      now,
    })
    if (!stillDeliverable && decision.kind === 'retry') decision = { kind: 'exhausted' }

    const retryAt = decision.kind === 'retry' ? new Date(now.getTime() + decision.delayMs) : null
    const status = decision.kind === 'retry' ? 'failed' : 'exhausted'
    await trx.rawQuery(
      `UPDATE webhook_deliveries
          SET status = ?, attempt_count = ?, next_attempt_at = ?, enqueued_at = ?, locked_until = NULL,
              last_attempt_at = ?, last_status_code = ?, last_error = ?, next_trigger = 'auto',
              updated_at = ?
        WHERE id = ? AND attempt_count = ?`,
      [
        status,
        attempt,
        retryAt,
        // The worker enqueues the next attempt right after the commit; if that fails the sweeper notices.
        retryAt ? now : null,
        startedAt,
        outcome.statusCode,
        outcome.error,
        now,
        delivery.id,
        attempt - 1,
      ] as any[]
    )
    return { decision, retryAt, duplicate: false }
  })
}

type Success = {
  delivery: ClaimedDelivery
  attempt: number
  outcome: SendOutcome
  startedAt: Date
  now: Date
}

/**
 * The common case in one statement (one round trip), shared by the successes
 * of concurrent jobs: the attempts, and each delivery marked succeeded only
 * if its attempt row was new. An endpoint is touched afterwards, and only
 * when its health has something to learn (an outage ended, or its last success
 * is older than `health.lastSuccessEveryMs`).
 */
async function recordSuccess(
  delivery: ClaimedDelivery,
  attempt: number,
  outcome: SendOutcome,
  startedAt: Date,
  now: Date
): Promise<Recorded> {
  const { recorded, endpointNews } = await successes.call({
    delivery,
    attempt,
    outcome,
    startedAt,
    now,
  })
  if (endpointNews) await transaction((trx) => noteSuccess(trx, delivery.endpoint_id, now))
  return { decision: { kind: 'succeeded' }, retryAt: null, duplicate: !recorded }
}

const SUCCESS_COLUMNS: Column[] = [
  ['attempt_id', 'uuid'],
  ['delivery_id', 'uuid'],
  ['endpoint_id', 'uuid'],
  ['attempt', 'int'],
  ['trigger', 'text'],
  ['started_at', 'timestamptz'],
  ['status_code', 'int'],
  ['latency_ms', 'int'],
  ['excerpt', 'text'],
  ['now', 'timestamptz'],
]

const successes = new Coalescer<Success, { recorded: boolean; endpointNews: boolean }>(
  async (inputs) => {
    // A VALUES list the planner can count (see `claims`).
    const batch = rowsOf(
      SUCCESS_COLUMNS,
      inputs.map(({ delivery, attempt, outcome, startedAt, now }) => ({
        attempt_id: uuidv7(),
        delivery_id: delivery.id,
        endpoint_id: delivery.endpoint_id,
        attempt,
        trigger: delivery.next_trigger,
        started_at: startedAt,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        excerpt: outcome.excerpt,
        now,
      }))
    )
    const result = await db.rawQuery(
      `WITH j AS (SELECT * FROM ${batch.from}), attempt AS (
       INSERT INTO webhook_attempts
         (id, delivery_id, endpoint_id, attempt, trigger, started_at, succeeded, status_code, latency_ms, response_excerpt)
       SELECT attempt_id, delivery_id, endpoint_id, attempt, trigger, started_at, true, status_code, latency_ms, excerpt FROM j
       ON CONFLICT (delivery_id, attempt) DO NOTHING
       RETURNING delivery_id
     ), delivery AS (
       UPDATE webhook_deliveries d
          SET status = 'succeeded', attempt_count = j.attempt, next_attempt_at = NULL, enqueued_at = NULL, locked_until = NULL,
              last_attempt_at = j.started_at, last_status_code = j.status_code, last_error = NULL, next_trigger = 'auto',
              succeeded_at = j.now, updated_at = j.now
         FROM j
        WHERE d.id = j.delivery_id AND d.attempt_count = j.attempt - 1 AND d.id IN (SELECT delivery_id FROM attempt)
     )
     SELECT (SELECT coalesce(array_agg(delivery_id::text), '{}') FROM attempt) AS recorded,
            (SELECT coalesce(array_agg(id::text), '{}') FROM webhook_endpoints
              WHERE id IN (SELECT endpoint_id FROM j) AND status <> 'disabled'
                AND (last_success_at IS NULL OR last_success_at < ? OR failing_since IS NOT NULL
                     OR consecutive_failures > 0 OR status = 'paused')) AS endpoints_with_news`,
      [
        ...batch.bindings,
        new Date(inputs[0].now.getTime() - webhooksConfig.health.lastSuccessEveryMs),
      ] as any[]
    )
    const recorded = new Set<string>(result.rows[0].recorded)
    const withNews = new Set<string>(result.rows[0].endpoints_with_news)
    // One health update per endpoint is plenty, whatever the batch holds.
    const told = new Set<string>()
    return inputs.map(({ delivery }) => {
      const news = withNews.has(delivery.endpoint_id) && !told.has(delivery.endpoint_id)
      if (news) told.add(delivery.endpoint_id)
      return { recorded: recorded.has(delivery.id), endpointNews: news }
    })
  }
)

/**
 * A success ends an outage and closes a half-open circuit. Written only when
 * something changes (or `health.lastSuccessEveryMs` passed), so a busy endpoint's deliveries do
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
    [now, now, endpointId, new Date(now.getTime() - webhooksConfig.health.lastSuccessEveryMs)]
  )
  const endpoint = result.rows[0]
  if (endpoint?.was_warned)
    await publishHealthEvent(trx, 'endpoint.recovered', endpoint, now, { reason: null })
  if (endpoint?.was_status === 'paused') {
    // The circuit closed: the deliveries it held back are due now.
    await trx.rawQuery(
      `UPDATE webhook_deliveries SET next_attempt_at = ?
        WHERE endpoint_id = ? AND status IN ('pending', 'failed') AND enqueued_at IS NULL AND next_attempt_at > ?`,
      [now, endpointId, now]
    )
    await wakeRelay(trx)
  }
}

/** Returns false when the endpoint can take no more attempts (disabled, now or before). */
async function noteFailure(
  trx: TransactionClientContract,
  endpointId: string,
  decision: Decision,
  { startedAt, now }: { startedAt: Date; now: Date }
) {
  const result = await trx.rawQuery(
    `UPDATE webhook_endpoints
        SET failing_since = COALESCE(failing_since, ?), last_failure_at = ?,
            consecutive_failures = consecutive_failures + 1, updated_at = ?
      WHERE id = ?
      RETURNING *`,
    [now, now, now, endpointId]
  )
  const endpoint: EndpointRow | undefined = result.rows[0]
  if (!endpoint || endpoint.status === 'disabled') return false
  if (decision.kind === 'gone') {
    await disableEndpoint(trx, endpointId, 'gone', now)
    return false
  }
  if (endpoint.status === 'paused') {
    // Sent before the circuit opened: a straggler of the same outage, already counted.
    const opened = endpoint.circuit_opened_at ? new Date(endpoint.circuit_opened_at) : null
    if (opened && startedAt < opened) return true
    // The half-open trial failed: pause again, for longer.
    await openCircuit(trx, endpoint, now)
    return true
  }
  const windowStart = new Date(now.getTime() - webhooksConfig.breaker.windowMs)
  const since =
    endpoint.circuit_closed_at && new Date(endpoint.circuit_closed_at) > windowStart
      ? new Date(endpoint.circuit_closed_at)
      : windowStart
  if (await failsMostly(trx, endpointId, since)) await openCircuit(trx, endpoint, now)
  return true
}
