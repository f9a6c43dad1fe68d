import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { pagination, strictObject, uuid } from '#validators/helpers'
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '#webhooks/event_schemas'

/**
 * The URL's shape only; whether it may be reached (SSRF policy, https in
 * production) is checked by the service, which resolves the host.
 */
const url = () =>
  vine.string().trim().maxLength(2048).url({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
const events = () => vine.array(vine.enum(SUBSCRIBABLE_EVENT_TYPES)).minLength(1).maxLength(SUBSCRIBABLE_EVENT_TYPES.length).distinct()
const description = () => vine.string().trim().maxLength(500)
const rateLimit = () => vine.number().withoutDecimals().range([1, 10_000])
/**
 * An ISO 8601 timestamp, strictly: `vine.date()` would also take a number
 * (epoch milliseconds) or "12345" (the year 1234), which are mistakes here.
 */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/
const isoTimestamp = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && (!ISO_8601.test(value) || Number.isNaN(Date.parse(value)))) {
    field.report('Use an ISO 8601 timestamp, e.g. 2026-11-22T09:00:00Z.', 'timestamp', field)
  }
})
const timestamp = () =>
  vine.string().trim().maxLength(40).use(isoTimestamp()).transform((value) => new Date(value))

export const createWebhookEndpointValidator = vine.create(
  strictObject({
    url: url(),
    events: events(),
    description: description().optional(),
    publisher_id: uuid().optional(),
    buyer_id: uuid().optional(),
    fifo: vine.boolean({ strict: true }).optional(),
    rate_limit_per_second: rateLimit().nullable().optional(),
  })
)

export const updateWebhookEndpointValidator = vine.create(
  strictObject({
    url: url().optional(),
    events: events().optional(),
    description: description().nullable().optional(),
    status: vine.enum(['enabled', 'disabled'] as const).optional(),
    fifo: vine.boolean({ strict: true }).optional(),
    rate_limit_per_second: rateLimit().nullable().optional(),
  })
)

const deliveryFilters = {
  status: vine.enum(['pending', 'succeeded', 'failed', 'exhausted'] as const).optional(),
  type: vine.enum(EVENT_TYPES).optional(),
  from: timestamp().optional(),
  to: timestamp().optional(),
  ...pagination,
}

/** `GET /v1/webhook-endpoints/{id}/deliveries` */
export const endpointDeliveriesValidator = vine.create(strictObject(deliveryFilters))

/** `GET /v1/webhook-deliveries`: the same filters across endpoints. */
export const deliveriesValidator = vine.create(strictObject({ ...deliveryFilters, endpoint_id: uuid().optional() }))

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
    type: vine.enum(SUBSCRIBABLE_EVENT_TYPES).optional(),
    from: timestamp().optional(),
    to: timestamp().optional(),
  })
)
