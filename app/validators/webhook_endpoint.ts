import vine from '@vinejs/vine'
import {
  documentedAs,
  flag,
  httpUrl,
  integer,
  pagination,
  strictObject,
  periodBound,
  timestamp,
  uuid,
} from '#validators/helpers'
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '#services/webhooks/event_schemas'

const eventType = () => vine.enum(SUBSCRIBABLE_EVENT_TYPES).use(documentedAs('EventType'))
const events = () =>
  vine.array(eventType()).minLength(1).maxLength(SUBSCRIBABLE_EVENT_TYPES.length).distinct()
const description = () => vine.string().trim().maxLength(500)
const rateLimit = () => integer().range([1, 10_000])
export const createWebhookEndpointValidator = vine.create(
  strictObject({
    url: httpUrl(),
    events: events(),
    description: description().optional(),
    publisher_id: uuid().optional(),
    buyer_id: uuid().optional(),
    fifo: flag().optional(),
    rate_limit_per_second: rateLimit().nullable().optional(),
  })
)

export const updateWebhookEndpointValidator = vine.create(
  strictObject({
    url: httpUrl().optional(),
    events: events().optional(),
    description: description().nullable().optional(),
    status: vine.enum(['enabled', 'disabled'] as const).optional(),
    fifo: flag().optional(),
    rate_limit_per_second: rateLimit().nullable().optional(),
  })
)

const deliveryFilters = {
  status: vine
    .enum(['pending', 'succeeded', 'failed', 'exhausted'] as const)
    .use(documentedAs('DeliveryStatus'))
    .optional(),
  type: vine.enum(EVENT_TYPES).optional(),
  from: periodBound().optional(),
  to: periodBound().optional(),
  ...pagination,
}

/** `GET /v1/webhook-endpoints/{id}/deliveries` */
export const endpointDeliveriesValidator = vine.create(strictObject(deliveryFilters))

/** `GET /v1/webhook-deliveries`: the same filters across endpoints. */
export const deliveriesValidator = vine.create(
  strictObject({ ...deliveryFilters, endpoint_id: uuid().optional() })
)

export const recoverValidator = vine.create(
  strictObject({
    since: timestamp(),
    until: timestamp().optional(),
  })
)

/** `POST /v1/webhook-deliveries/retry`: resend what the filter selects, exhausted deliveries by default. */
export const bulkRetryValidator = vine.create(
  strictObject({
    status: vine.enum(['failed', 'exhausted'] as const).optional(),
    endpoint_id: uuid().optional(),
    type: eventType().optional(),
    from: periodBound().optional(),
    to: periodBound().optional(),
  })
)
