import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { RECEIVES_SQL } from '#services/webhooks/subscription'
import { deliveryRow, wakeRelay } from '#services/webhooks/fan_out'
import type { Trigger } from '#models/webhook_delivery'

/**
 * A resend: the delivery is due now and starts a fresh run of the retry
 * schedule (the attempt count, and so the job ids, keep counting up). A
 * delivery whose attempt is in flight is left alone.
 */
export const RESCHEDULE = `
  status = 'pending', schedule_offset = attempt_count, next_trigger = :trigger, next_attempt_at = :now,
  enqueued_at = NULL, updated_at = :now`
export const NOT_IN_FLIGHT = `(d.locked_until IS NULL OR d.locked_until < :now)`

type Filter = { sql: string; bindings: Record<string, unknown> }

/** Reschedules the deliveries `d` (joined to their endpoint `e`) that the filter selects. */
export async function rescheduleWhere(
  client: QueryClientContract,
  filter: Filter,
  trigger: Trigger,
  now: Date
) {
  const result = await client.rawQuery(
    `UPDATE webhook_deliveries d SET ${RESCHEDULE}
       FROM webhook_endpoints e
      WHERE e.id = d.endpoint_id AND e.status <> 'disabled' AND ${NOT_IN_FLIGHT} AND ${filter.sql}
      RETURNING d.id`,
    { ...filter.bindings, trigger, now }
  )
  if (result.rows.length > 0) await wakeRelay(client)
  return result.rows.length as number
}

/**
 * Creates the deliveries an endpoint never got for events in `[since, until)`
 * (it was disabled, or subscribed later to a type). Never reaches back before
 * the endpoint existed.
 */
export async function createMissingDeliveries(
  client: QueryClientContract,
  endpointId: string,
  since: Date,
  until: Date,
  now: Date
) {
  let created = 0
  for (;;) {
    const missing = await client.rawQuery(
      `SELECT ev.id, ev.type, ev.created_at, ev.environment, ev.lead_id, ev.publisher_id, ev.buyer_id
         FROM outbox_events ev
         JOIN webhook_endpoints e ON e.id = :endpointId
        WHERE ev.created_at >= :since AND ev.created_at >= e.created_at AND ev.created_at < :until
          AND ${RECEIVES_SQL}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.endpoint_id = e.id)
        ORDER BY ev.created_at
        LIMIT 1000`,
      { endpointId, since, until }
    )
    if (missing.rows.length === 0) break
    const rows = missing.rows.map((event: any) => ({
      ...deliveryRow(
        {
          id: event.id,
          type: event.type,
          createdAt: event.created_at,
          environment: event.environment,
          leadId: event.lead_id,
          publisherId: event.publisher_id,
          buyerId: event.buyer_id,
        },
        endpointId,
        now
      ),
      next_trigger: 'recover',
    }))
    await client
      .knexQuery()
      .table('webhook_deliveries')
      .insert(rows)
      .onConflict(['event_id', 'endpoint_id'])
      .ignore()
    created += rows.length
    if (missing.rows.length < 1000) break
  }
  if (created > 0) await wakeRelay(client)
  return created
}
