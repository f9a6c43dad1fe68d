import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import webhooksConfig from '#config/webhooks'
import OutboxService from '#services/webhooks/outbox_service'
import type { EndpointRow } from '#services/webhooks/endpoint_row'

const outbox = new OutboxService()
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

/**
 * `endpoint.failing`, `endpoint.disabled` and `endpoint.recovered` go to the
 * endpoint's owner (its other endpoints) and to the operator, like any event.
 */
export async function publishHealthEvent(
  trx: TransactionClientContract,
  type: 'endpoint.failing' | 'endpoint.disabled' | 'endpoint.recovered',
  endpoint: EndpointRow,
  now: Date,
  extra: { reason?: string | null; disableAt?: Date } = {}
) {
  await outbox.publish(
    trx,
    [
      {
        type,
        publisherId: endpoint.publisher_id,
        buyerId: endpoint.buyer_id,
        environment: endpoint.environment,
        data: {
          endpoint_id: endpoint.id,
          url: endpoint.url,
          status: endpoint.status,
          reason: extra.reason ?? endpoint.disabled_reason,
          failing_since: iso(endpoint.failing_since),
          last_success_at: iso(endpoint.last_success_at),
          ...(extra.disableAt ? { disable_at: extra.disableAt.toISOString() } : {}),
        },
      },
    ],
    now
  )
}

/**
 * Disables an endpoint: nothing more is sent (a probe aside), and its open
 * deliveries become exhausted, queryable and retryable in bulk. Deliveries
 * in flight settle when their attempt is recorded. `manual` is the owner's
 * own doing and announces nothing.
 */
export async function disableEndpoint(
  trx: TransactionClientContract,
  endpointId: string,
  reason: 'manual' | 'gone' | 'failing',
  now: Date,
  /** For the health rule: only if the outage still started before this (no success came in between). */
  failingBefore?: Date
) {
  const result = await trx.rawQuery(
    `UPDATE webhook_endpoints
        SET status = 'disabled', disabled_reason = ?, disabled_at = ?, paused_until = NULL, updated_at = ?
      WHERE id = ? AND status <> 'disabled' ${failingBefore ? 'AND failing_since <= ?' : ''}
      RETURNING *`,
    [reason, now, now, endpointId, ...(failingBefore ? [failingBefore] : [])]
  )
  const endpoint: EndpointRow | undefined = result.rows[0]
  if (!endpoint) return null
  await trx.rawQuery(
    `UPDATE webhook_deliveries
        SET status = 'exhausted', next_attempt_at = NULL, enqueued_at = NULL,
            last_error = COALESCE(last_error, 'endpoint_disabled'), updated_at = ?
      WHERE endpoint_id = ? AND status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until < ?)`,
    [now, endpointId, now]
  )
  if (reason !== 'manual') await publishHealthEvent(trx, 'endpoint.disabled', endpoint, now)
  return endpoint
}

/** Back to normal: enabled, circuit closed, the outage forgotten. */
export async function enableEndpoint(
  trx: TransactionClientContract,
  endpointId: string,
  now: Date
) {
  const result = await trx.rawQuery(
    `UPDATE webhook_endpoints
        SET status = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL,
            failing_warned_at = NULL, consecutive_failures = 0, paused_until = NULL, circuit_trips = 0,
            circuit_closed_at = ?, updated_at = ?
      WHERE id = ?
      RETURNING *`,
    [now, now, endpointId]
  )
  return result.rows[0] as EndpointRow | undefined
}

/** Opens the circuit: the endpoint pauses, for longer each time it trips in a row. */
export async function openCircuit(
  trx: TransactionClientContract,
  endpoint: EndpointRow,
  now: Date
) {
  const { cooldownMs, maxCooldownMs } = webhooksConfig.breaker
  const pauseMs = Math.min(cooldownMs * 2 ** endpoint.circuit_trips, maxCooldownMs)
  await trx.rawQuery(
    `UPDATE webhook_endpoints
        SET status = 'paused', paused_until = ?, circuit_trips = circuit_trips + 1,
            circuit_opened_at = ?, updated_at = ?
      WHERE id = ? AND status <> 'disabled'`,
    [new Date(now.getTime() + pauseMs), now, now, endpoint.id]
  )
}

/** Whether most of the endpoint's recent requests failed (since the circuit last closed). */
export async function failsMostly(trx: TransactionClientContract, endpointId: string, since: Date) {
  const { minRequests, failureRatio } = webhooksConfig.breaker
  const result = await trx.rawQuery(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE NOT succeeded)::int AS failed
       FROM (SELECT succeeded FROM webhook_attempts
              WHERE endpoint_id = ? AND started_at > ? AND delivery_id IS NOT NULL
              ORDER BY started_at DESC LIMIT 50) recent`,
    [endpointId, since]
  )
  const { total, failed } = result.rows[0]
  return total >= minRequests && failed > total * failureRatio
}
