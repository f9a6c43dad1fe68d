import { uuidv7 } from 'uuidv7'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { type EventScope, receives } from '#services/webhooks/subscription'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import { type Column, type Part, insertRows, rawPart } from '#services/sql/insert_together'

/** NOTIFY channel: a commit that created due deliveries wakes the relay at once. */
export const WAKE_CHANNEL = 'leadgate_webhooks'
/** NOTIFY channel: a recovery or bulk-retry task was queued. */
export const TASK_CHANNEL = 'leadgate_webhook_tasks'

export type PublishedEvent = EventScope & { id: string; leadId: string | null; createdAt: Date }

/** A new delivery row, due now. Events of one lead share an ordering key (FIFO endpoints). */
export function deliveryRow(event: PublishedEvent, endpointId: string, now: Date) {
  return {
    id: uuidv7(),
    event_id: event.id,
    endpoint_id: endpointId,
    event_type: event.type,
    event_created_at: event.createdAt,
    environment: event.environment,
    ordering_key: event.leadId,
    status: 'pending',
    attempt_count: 0,
    schedule_offset: 0,
    next_trigger: 'auto',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }
}

const DELIVERY_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['event_id', 'uuid'],
  ['endpoint_id', 'uuid'],
  ['event_type', 'text'],
  ['event_created_at', 'timestamptz'],
  ['environment', 'text'],
  ['ordering_key', 'text'],
  ['status', 'text'],
  ['attempt_count', 'int'],
  ['schedule_offset', 'int'],
  ['next_trigger', 'text'],
  ['next_attempt_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
]

/**
 * Fan-out, the webhooks' side of the outbox: which endpoints receive an
 * event and the delivery rows that say so. Producers outside webhooks/ go
 * through OutboxService, never here.
 *
 * The endpoints that may want events of these scopes, as a read another
 * statement can carry (`insertTogether`, `selectTogether`).
 */
export function endpointsFor(
  events: Pick<EventScope, 'publisherId' | 'buyerId' | 'environment'>[]
): Part {
  const publisherIds = [
    ...new Set(events.map((event) => event.publisherId).filter((id): id is string => !!id)),
  ]
  const buyerIds = [
    ...new Set(events.map((event) => event.buyerId).filter((id): id is string => !!id)),
  ]
  const environments = [...new Set(events.map((event) => event.environment))]
  return rawPart(
    `SELECT e.id, e.owner_type, e.publisher_id, e.buyer_id, e.environment, e.events,
            CASE WHEN e.label_id IS NULL THEN NULL
                 ELSE ARRAY(SELECT p.id::text FROM public.publishers p
                             WHERE p.label_id = e.label_id AND p.id = ANY(?::uuid[])) END AS label_publishers
       FROM public.webhook_endpoints e
      WHERE e.status IN ('enabled', 'paused') AND e.environment = ANY(?::text[])
        AND (e.owner_type = 'operator' OR e.publisher_id = ANY(?::uuid[]) OR e.buyer_id = ANY(?::uuid[]))`,
    [publisherIds, environments, publisherIds, buyerIds]
  )
}

/** One delivery row per event and endpoint (rows of `endpointsFor`) that receives it. */
export function deliveriesOf(events: PublishedEvent[], endpoints: SubscribedEndpoint[], now: Date) {
  return events.flatMap((event) =>
    endpoints
      .filter((endpoint) => inLabel(endpoint, event))
      .filter((endpoint) =>
        receives(
          {
            ownerType: endpoint.owner_type,
            publisherId: endpoint.publisher_id,
            buyerId: endpoint.buyer_id,
            environment: endpoint.environment,
            events: endpoint.events,
          },
          event
        )
      )
      .map((endpoint) => deliveryRow(event, endpoint.id, now))
  )
}

/** A label's endpoint hears only the events of that label's publishers. */
function inLabel(endpoint: SubscribedEndpoint, event: PublishedEvent) {
  if (!endpoint.label_publishers) return true
  return event.publisherId !== null && endpoint.label_publishers.includes(event.publisherId)
}

/**
 * The deliveries as writes for the caller's statement (`insertTogether`):
 * the rows, then the relay's wake-up, which must come last (a SELECT runs
 * only as the statement's own, never as a side part).
 */
export function deliveryWrites(rows: ReturnType<typeof deliveryRow>[]): Part[] {
  if (rows.length === 0) return []
  return [
    insertRows('public.webhook_deliveries', DELIVERY_COLUMNS, rows),
    rawPart('SELECT pg_notify(?, ?)', [WAKE_CHANNEL, '']),
  ]
}

/** Delivered on commit (and dropped on rollback), like the rows it announces. */
export async function wakeRelay(client: QueryClientContract) {
  await client.rawQuery('SELECT pg_notify(?, ?)', [WAKE_CHANNEL, ''])
}

export async function wakeTaskRunner(client: QueryClientContract) {
  await client.rawQuery('SELECT pg_notify(?, ?)', [TASK_CHANNEL, ''])
}
