import type { Environment, PrincipalKind } from '#auth/principal'
import type { OwnerType } from '#models/mixins/with_owner_scope'
import { SUBSCRIBABLE_EVENT_TYPES } from '#services/webhooks/event_schemas'

export type Subscriber = {
  ownerType: OwnerType
  publisherId: string | null
  buyerId: string | null
  environment: Environment
}

export type EventScope = {
  type: string
  publisherId: string | null
  buyerId: string | null
  environment: Environment
}

const HEALTH_EVENTS = ['endpoint.failing', 'endpoint.disabled', 'endpoint.recovered']
/** A buyer hears its matches, the money of its purchases and its disputes. */
const BUYER_EVENTS = [
  'match.found',
  'payout.processed',
  'dispute.opened',
  'dispute.responded',
  'dispute.decided',
  'consent.revoked',
  'buyer.funds_low',
]

/**
 * What an owner may subscribe to, from the visibility table: the operator
 * everything; a publisher its own leads, consent, disputes and payouts but
 * never a match (buyers and prices are not its to see); a buyer the leads
 * matched to it, their acceptance and its disputes (each party's copy of a
 * money event is its own event, carrying only its own figures). Everyone
 * hears about the health of their own endpoints.
 */
export function subscribableBy(ownerType: OwnerType): string[] {
  if (ownerType === 'operator') return [...SUBSCRIBABLE_EVENT_TYPES]
  if (ownerType === 'buyer') return [...BUYER_EVENTS, ...HEALTH_EVENTS]
  return SUBSCRIBABLE_EVENT_TYPES.filter(
    (type) => type !== 'match.found' && type !== 'buyer.funds_low'
  )
}

/** Whether an event is the owner's to see (subscriptions aside). Sandbox and live never mix. */
export function mayReceive(subscriber: Subscriber, event: EventScope) {
  if (subscriber.environment !== event.environment) return false
  if (!subscribableBy(subscriber.ownerType).includes(event.type)) return false
  if (subscriber.ownerType === 'operator') return true
  if (subscriber.ownerType === 'publisher')
    return event.publisherId !== null && event.publisherId === subscriber.publisherId
  return event.buyerId !== null && event.buyerId === subscriber.buyerId
}

/** The endpoint receives the event: it subscribed to the type and may see it. */
export function receives(endpoint: Subscriber & { events: string[] }, event: EventScope) {
  return endpoint.events.includes(event.type) && mayReceive(endpoint, event)
}

/**
 * `mayReceive` as SQL over `webhook_endpoints e` and `outbox_events ev`, for
 * the set-based work of recovery. A unit test holds both forms together.
 */
export const RECEIVES_SQL = `
  ev.environment = e.environment
  AND ev.type = ANY(e.events)
  AND (
    e.owner_type = 'operator'
    OR (e.owner_type = 'publisher' AND ev.publisher_id = e.publisher_id AND ev.type <> 'match.found')
    OR (e.owner_type = 'buyer' AND ev.buyer_id = e.buyer_id
        AND (ev.type IN ('match.found', 'payout.processed', 'dispute.opened', 'dispute.responded', 'dispute.decided', 'consent.revoked', 'buyer.funds_low')
             OR ev.type LIKE 'endpoint.%'))
  )
  AND (e.label_id IS NULL
       OR EXISTS (SELECT 1 FROM publishers p WHERE p.id = ev.publisher_id AND p.label_id = e.label_id))`

/** The principal as a subscriber: what it may see of events (replay). */
export function subscriberOf(principal: {
  kind: PrincipalKind
  publisherId: string | null
  buyerId: string | null
  environment: Environment
}): Subscriber | null {
  // A label manager reads reports and leads only: it subscribes to nothing.
  if (principal.kind === 'compliance' || principal.kind === 'label_manager') return null
  return {
    ownerType: principal.kind,
    publisherId: principal.publisherId,
    buyerId: principal.buyerId,
    environment: principal.environment,
  }
}
