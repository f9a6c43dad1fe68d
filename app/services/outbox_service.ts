import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import { assertValidEvent } from '#webhooks/event_registry'
import { type PublishedEvent, fanOut } from '#webhooks/fan_out'
import { type Column, insertRows, insertTogether } from '#services/insert_together'

const EVENT_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['type', 'text'],
  ['publisher_id', 'uuid'],
  ['buyer_id', 'uuid'],
  ['lead_id', 'uuid'],
  ['environment', 'text'],
  ['payload', 'jsonb'],
  ['created_at', 'timestamptz'],
  ['dispatched_at', 'timestamptz'],
]

export type OutboxEvent = {
  type: string
  publisherId: string | null
  buyerId?: string | null
  leadId?: string | null
  environment: Environment
  data: Record<string, unknown>
}

/**
 * Events are rows written in the transaction that caused them, together with
 * one delivery row per subscribed endpoint, so an event and its deliveries
 * exist exactly when their cause committed. The webhook relay takes it from
 * there; Postgres, not Redis, is the truth.
 */
export default class OutboxService {
  envelope(id: string, type: string, created: Date, data: Record<string, unknown>) {
    return { event_id: id, type, created: created.toISOString(), data }
  }

  /** Throws InvalidEventPayload (rolling the cause back) when a payload breaks its type's JSON Schema. */
  async publish(trx: TransactionClientContract, events: OutboxEvent[], now = new Date()) {
    if (events.length === 0) return []
    const { insert, published } = this.prepare(events, now)
    await insertTogether(trx, [insert])
    await fanOut(trx, published, now)
    return published.map(({ id }) => id)
  }

  /**
   * The events checked against their schemas and as one INSERT, for a
   * caller that sends it with its other writes (`insertTogether`) and then
   * fans `published` out (`fanOut`), as `publish` does.
   */
  prepare(events: OutboxEvent[], now: Date) {
    const rows = events.map((event) => {
      const id = uuidv7()
      const envelope = this.envelope(id, event.type, now, event.data)
      assertValidEvent(envelope)
      return {
        id,
        type: event.type,
        publisher_id: event.publisherId,
        buyer_id: event.buyerId ?? null,
        lead_id: event.leadId ?? null,
        environment: event.environment,
        payload: JSON.stringify(envelope),
        created_at: now,
        dispatched_at: now,
      }
    })
    const published: PublishedEvent[] = rows.map((row) => ({
      id: row.id,
      type: row.type,
      publisherId: row.publisher_id,
      buyerId: row.buyer_id,
      leadId: row.lead_id,
      environment: row.environment,
      createdAt: now,
    }))
    return { insert: insertRows('public.outbox_events', EVENT_COLUMNS, rows), published }
  }
}
