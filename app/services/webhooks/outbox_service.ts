import { uuidv7 } from 'uuidv7'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import { assertValidEvent } from '#services/webhooks/event_registry'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import {
  type PublishedEvent,
  deliveriesOf,
  deliveryWrites,
  endpointsFor,
} from '#services/webhooks/fan_out'
import { type Column, type Part, insertRows, insertTogether } from '#services/sql/insert_together'

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

/** Events checked against their schemas and ready to write, with the time they were published. */
export type StagedEvents = { published: PublishedEvent[]; insert: Part; now: Date }

/**
 * The one door for events. Events are rows written in the transaction that
 * caused them, together with one delivery row per subscribed endpoint, so
 * an event and its deliveries exist exactly when their cause committed. The
 * webhook relay takes it from there; Postgres, not Redis, is the truth.
 *
 * `publish` does it all. A producer that batches its writes into few
 * statements (intake, routing) stages the events, reads `endpointsFor`
 * within a statement of its own, and sends `writes` (or `deliver` after
 * writing `insert` itself). Staging (and so `publish`) throws
 * InvalidEventPayload, rolling the cause back, when a payload breaks its
 * type's JSON Schema.
 */
export default class OutboxService {
  async publish(trx: TransactionClientContract, events: OutboxEvent[], now = new Date()) {
    if (events.length === 0) return []
    const staged = this.stage(events, now)
    const endpoints = await insertTogether(trx, [
      staged.insert,
      this.endpointsFor(staged.published),
    ])
    await this.deliver(trx, staged, endpoints as SubscribedEndpoint[])
    return staged.published.map(({ id }) => id)
  }

  envelope(id: string, type: string, created: Date, data: Record<string, unknown>) {
    return { event_id: id, type, created: created.toISOString(), data }
  }

  stage(events: OutboxEvent[], now: Date): StagedEvents {
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
    return { published, insert: insertRows('public.outbox_events', EVENT_COLUMNS, rows), now }
  }

  /** The endpoints that may want events of these scopes, as a read another statement can carry. */
  endpointsFor(scopes: Parameters<typeof endpointsFor>[0]): Part {
    return endpointsFor(scopes)
  }

  /** The event rows and their deliveries to `endpoints` (rows of `endpointsFor`), for one statement. */
  writes(staged: StagedEvents, endpoints: SubscribedEndpoint[]): Part[] {
    return [staged.insert, ...deliveryWrites(deliveriesOf(staged.published, endpoints, staged.now))]
  }

  /** The deliveries of staged events whose rows the caller has written. Disabled endpoints get none. */
  async deliver(
    client: QueryClientContract,
    staged: StagedEvents,
    endpoints: SubscribedEndpoint[]
  ) {
    const rows = deliveriesOf(staged.published, endpoints, staged.now)
    if (rows.length > 0) await insertTogether(client, deliveryWrites(rows))
    return rows.length
  }
}
