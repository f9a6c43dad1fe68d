/**
 * The contract of every event Leadgate sends: one JSON Schema (2020-12, the
 * dialect of OpenAPI 3.1) per `data` shape. The outbox checks each payload
 * against it when the event is published, and the OpenAPI document serves
 * the same objects, so the docs cannot drift from what is sent.
 */
export type JsonSchema = { [key: string]: unknown }

/** Types an endpoint can subscribe to. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'lead.received',
  'consent.recorded',
  'lead.reviewed',
  'call.attached',
  'match.found',
  'payout.processed',
  'dispute.opened',
  'dispute.responded',
  'dispute.decided',
  'consent.revoked',
  'endpoint.failing',
  'endpoint.disabled',
  'endpoint.recovered',
  'buyer.funds_low',
] as const

/** `webhook.ping` is sent to one endpoint (a probe), never subscribed to. */
export const EVENT_TYPES = [...SUBSCRIBABLE_EVENT_TYPES, 'webhook.ping'] as const

export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number]
export type EventType = (typeof EVENT_TYPES)[number]

const id = { type: 'string', format: 'uuid' }
const timestamp = { type: 'string', format: 'date-time' }
const text = (maxLength: number) => ({ type: ['string', 'null'], maxLength })
const nullable = (schema: JsonSchema) => ({ oneOf: [schema, { type: 'null' }] })
const cents = { type: 'integer', minimum: 0 }
const currency = { type: 'string', pattern: '^[A-Z]{3}$' }

/** A closed object: every listed property, nothing else. */
function object(
  properties: Record<string, JsonSchema>,
  required = Object.keys(properties),
  description?: string
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required,
    additionalProperties: false,
  }
}

/** Consent fields travel separately in every webhook (given, text, timestamp, ip). */
const fullConsent = object({
  given: { type: 'boolean' },
  text: text(5000),
  timestamp: nullable(timestamp),
  ip: text(45),
})

const provenance = (extra: Record<string, JsonSchema> = {}) =>
  object({ source: text(200), campaign: text(200), label: text(64), ...extra }, [
    'source',
    'campaign',
    'label',
  ])

/** Named `data` schemas; several event types share one. */
export const EVENT_DATA_SCHEMAS: Record<string, JsonSchema> = {
  LeadReceivedData: object(
    {
      lead_id: id,
      publisher: { type: 'string', maxLength: 64, description: "The publisher's slug." },
      status: { type: 'string', enum: ['accepted', 'flagged'] },
      buyer_id: { ...nullable(id), description: 'Null until the lead is matched.' },
      provenance: provenance({ landing_page: text(2048) }),
      consent: object({ given: { type: 'boolean' }, timestamp: nullable(timestamp) }),
    },
    ['lead_id', 'publisher', 'status', 'provenance', 'consent'],
    'A lead arrived and passed first validation (accepted, or flagged for review).'
  ),
  ConsentRecordedData: object(
    {
      lead_id: id,
      publisher: { type: 'string', maxLength: 64 },
      provenance: provenance(),
      consent: fullConsent,
    },
    ['lead_id', 'provenance', 'consent'],
    "The applicant's consent was registered with the lead."
  ),
  LeadReviewedData: object(
    {
      lead_id: id,
      publisher: { type: 'string', maxLength: 64, description: "The publisher's slug." },
      status: {
        type: 'string',
        enum: ['accepted', 'rejected'],
        description: '`accepted` goes on to routing like any accepted lead.',
      },
      reason: { ...text(500), description: "The reviewer's reason; always given for a rejection." },
      reviewed_at: timestamp,
    },
    undefined,
    'The operator reviewed a lead that was flagged (held for review): accepted or rejected.'
  ),
  CallAttachedData: object(
    {
      call_id: id,
      lead_id: id,
      vendor: {
        type: 'string',
        maxLength: 16,
        description: '`api`, `ringba`, `retreaver`, `callrail` or `invoca`.',
      },
      vendor_call_id: { type: 'string', maxLength: 200 },
      started_at: timestamp,
      duration_seconds: { type: ['integer', 'null'], minimum: 0 },
      disposition: text(100),
      campaign: text(200),
      matched_by: { type: 'string', enum: ['lead_id', 'phone'] },
    },
    undefined,
    'A call reported by a call-tracking vendor was attached to the lead (by the lead id it carried, or by the caller phone).'
  ),
  MatchFoundData: object(
    {
      lead_id: id,
      buyer_id: id,
      status: { type: 'string', enum: ['matched'] },
      contact: object(
        {
          name: text(200),
          email: text(254),
          phone: text(32),
          postal_code: text(16),
          country: text(2),
        },
        ['name', 'email', 'phone']
      ),
      provenance: provenance({ landing_page: text(2048) }),
      consent: fullConsent,
      attributes: {
        type: 'object',
        additionalProperties: { type: ['string', 'number', 'boolean'] },
      },
      routing_rule_id: id,
      price_cents: { ...cents, description: "The buyer's price for this lead." },
      currency,
      matched_at: timestamp,
    },
    ['lead_id', 'buyer_id', 'status', 'contact', 'provenance', 'consent'],
    'Routing matched the lead to a buyer; the buyer receives the lead itself.'
  ),
  PayoutProcessedData: {
    description:
      'Money became final and was booked in the audit trail: `buyer_acceptance` when a return window ' +
      "closed without a dispute (to the buyer's endpoints), `publisher_payout` when a payout was paid " +
      "(to the publisher's endpoints).",
    oneOf: [
      object(
        {
          kind: { type: 'string', const: 'buyer_acceptance' },
          lead_id: id,
          buyer_id: id,
          amount_cents: { ...cents, description: "The buyer's price, now final." },
          currency,
          provenance: provenance(),
          consent: object({ given: { type: 'boolean' }, timestamp: nullable(timestamp) }),
          accepted_at: timestamp,
        },
        undefined,
        'The return window of a lead sold to this buyer closed without a dispute.'
      ),
      object(
        {
          kind: { type: 'string', const: 'publisher_payout' },
          payout_id: id,
          publisher_id: id,
          amount_cents: { type: 'integer', description: 'What was paid, net of clawbacks.' },
          currency,
          lead_count: { type: 'integer', minimum: 0 },
          period_start: nullable({ type: 'string', format: 'date' }),
          period_end: { type: 'string', format: 'date' },
          reference: text(200),
          processed_at: timestamp,
        },
        undefined,
        'A payout to this publisher was paid; its leads are now paid_out.'
      ),
    ],
  },
  ConsentRevokedData: object(
    {
      lead_id: id,
      publisher: { type: 'string', maxLength: 64, description: "The publisher's slug." },
      revoked_at: timestamp,
    },
    undefined,
    'The person withdrew consent: stop contacting them. Sent to the publisher and to the buyer holding the lead.'
  ),
  DisputeData: object(
    {
      dispute_id: id,
      lead_id: id,
      audience: {
        type: 'string',
        enum: ['publisher', 'buyer'],
        description:
          "Whose copy this is: each party gets its own (the operator's endpoints get both).",
      },
      status: {
        type: 'string',
        maxLength: 32,
        description: '`open`, `responded`, `upheld`, `rejected`, or `withdrawn` by the buyer.',
      },
      reason: { type: 'string', maxLength: 64 },
      detail: text(2000),
      deadline_at: {
        ...nullable(timestamp),
        description: "The deadline now running (the publisher's answer, then the decision).",
      },
      respond_by: timestamp,
      decide_by: timestamp,
      decision: { type: ['string', 'null'], enum: ['upheld', 'rejected', null] },
      decided_by: {
        ...text(80),
        description: 'A rule (`rule:no_response`, …) or `operator`.',
      },
      amount_cents: {
        ...cents,
        description:
          'This party’s own figure: the payout to the publisher, the price to the buyer.',
      },
      currency,
      files: {
        type: 'array',
        maxItems: 5,
        description: "The files of the publisher's answer (`dispute.responded`), by digest.",
        items: object({
          id,
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          size_bytes: { type: 'integer', minimum: 1 },
          content_type: { type: 'string', maxLength: 100 },
        }),
      },
      occurred_at: timestamp,
    },
    ['dispute_id', 'lead_id', 'status', 'reason', 'occurred_at'],
    'A dispute about a lead was opened, answered or decided (`dispute.decided` also closes a withdrawn one).'
  ),
  EndpointHealthData: object(
    {
      endpoint_id: id,
      url: { type: 'string', maxLength: 2048 },
      status: { type: 'string', enum: ['enabled', 'disabled', 'paused'] },
      reason: text(64),
      failing_since: nullable(timestamp),
      last_success_at: nullable(timestamp),
      disable_at: nullable(timestamp),
    },
    ['endpoint_id', 'url', 'status', 'reason', 'failing_since', 'last_success_at'],
    'An endpoint is failing (disabled in 24 h without a success), was disabled, or recovered.'
  ),
  BuyerFundsLowData: object(
    {
      buyer_id: id,
      currency,
      mode: { type: 'string', enum: ['prepaid', 'credit'] },
      threshold_percent: { type: 'integer', enum: [80, 100] },
      balance_cents: { type: 'integer' },
      credit_limit_cents: cents,
      reserved_cents: cents,
      available_cents: { type: 'integer' },
    },
    undefined,
    'A buyer has used 80 % or all of its funds (a prepaid balance since its last top-up, or a credit limit): top it up or raise the limit, or its leads go to others.'
  ),
  WebhookPingData: object(
    {
      endpoint_id: id,
      reason: { type: 'string', enum: ['probe'] },
    },
    undefined,
    'Sent to a disabled endpoint to learn whether it answers again; a 2xx re-enables it.'
  ),
}

/** Which `data` schema each event type carries. */
export const EVENT_DATA_SCHEMA_OF: Record<EventType, keyof typeof EVENT_DATA_SCHEMAS> = {
  'lead.received': 'LeadReceivedData',
  'consent.recorded': 'ConsentRecordedData',
  'lead.reviewed': 'LeadReviewedData',
  'call.attached': 'CallAttachedData',
  'match.found': 'MatchFoundData',
  'payout.processed': 'PayoutProcessedData',
  'dispute.opened': 'DisputeData',
  'dispute.responded': 'DisputeData',
  'dispute.decided': 'DisputeData',
  'consent.revoked': 'ConsentRevokedData',
  'endpoint.failing': 'EndpointHealthData',
  'endpoint.disabled': 'EndpointHealthData',
  'endpoint.recovered': 'EndpointHealthData',
  'webhook.ping': 'WebhookPingData',
  'buyer.funds_low': 'BuyerFundsLowData',
}

/**
 * The envelope of one event type. `dataSchema` lets the OpenAPI document
 * pass a `$ref` instead of the inline object.
 */
export function envelopeSchema(
  type: EventType,
  dataSchema: JsonSchema = EVENT_DATA_SCHEMAS[EVENT_DATA_SCHEMA_OF[type]]
): JsonSchema {
  return object({
    event_id: { ...id, description: 'The same on every retry and replay: drop duplicates by it.' },
    type: { type: 'string', const: type },
    created: timestamp,
    data: dataSchema,
  })
}

/** Data of a `match.found` event, for the routing code that publishes it. */
export type MatchFoundData = {
  lead_id: string
  buyer_id: string
  status: 'matched'
  contact: {
    name: string | null
    email: string | null
    phone: string | null
    postal_code?: string | null
    country?: string | null
  }
  provenance: {
    source: string | null
    campaign: string | null
    label: string | null
    landing_page?: string | null
  }
  consent: { given: boolean; text: string | null; timestamp: string | null; ip: string | null }
  attributes?: Record<string, string | number | boolean>
  routing_rule_id?: string
  price_cents?: number
  currency?: string
  matched_at?: string
}
