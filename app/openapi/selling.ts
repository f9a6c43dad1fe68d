import {
  DEFAULT_PING_POLICY,
  MAX_SHARED_SALES,
  PING_TREATMENTS,
  SALE_DEFAULTS,
} from '#services/routing/sale_settings'
import {
  createDestinationValidator,
  listDestinationsValidator,
  testDestinationValidator,
  updateDestinationValidator,
} from '#validators/destination'
import { pingValidator } from '#validators/ping'
import { fromValidator, queryParameters } from './from_validator.js'
import { arrayOf, list, nullable, operation, param, record, ref, type Section } from './helpers.js'

/** Selling (docs/selling.md): the sale of a lead, and where each buyer takes its leads. */
const saleStatus = {
  type: 'string',
  enum: ['pending', 'sold', 'unsold'],
  description:
    '`pending`: the sale is not decided yet (or the lead waits for review); `sold`: at least one buyer took it; `unsold`: nobody did (an accepted lead is offered again when rules, caps or schedules change).',
}

const httpExample = {
  method: 'POST',
  url: 'https://crm.buyer.example/api/leads',
  content_type: 'json',
  template:
    '{"first_name": "{{ contact.name | first_name }}", "last_name": "{{ contact.name | last_name }}", "phone": "{{ contact.phone | e164 }}", "email": "{{ contact.email }}", "zip": "{{ contact.postal_code }}", "source": "leadgate"}',
  auth: { type: 'bearer', token: 'buyers-own-api-token' },
  timeout_ms: 5000,
  response: {
    accepted: { status: [200, 201], path: '$.result', equals: 'success' },
    rejected: { path: '$.result', equals: 'rejected' },
    duplicate: { path: '$.reason', matches: '(?i)duplicate' },
    reason_path: '$.reason',
    buyer_lead_id_path: '$.lead_id',
  },
}

const destinationDocs = {
  'name': 'For people: shown in the portals and on each sale attempt.',
  'kind':
    '`webhook`: Leadgate’s own signed `match.found` to the buyer’s webhook endpoints; `http`: a post into the buyer’s own system; `email`: a branded e-mail to the buyer’s address; `crm`: the buyer’s own CRM through its plugin.',
  'http':
    'Required for kind `http` (docs/selling.md, "Posting into a buyer’s system"). Secrets (`password`, `token`, `value`, `client_secret`) are stored encrypted and never answered; on an update, leave one out to keep it.',
  'http.template':
    'LiquidJS over the lead (`{{ contact.email }}`, `{{ contact.name | first_name }}`, `{{ contact.phone | e164 }}`, `{{ attributes.age }}`), escaped for the content type. Checked when saved: it must render the sample lead into a valid document.',
  'http.response':
    'How the answer is read: `duplicate`, then `rejected`, then `accepted`; each rule names status codes and optionally a JSON path or XPath (`path`) with `equals` or a pattern (`matches`, RE2 syntax). Nothing matched is an `error`.',
  'email': 'Required for kind `email`: where the lead e-mail goes.',
  'crm':
    'Required for kind `crm`: the plugin (`crm-hubspot`, `crm-salesforce`, `crm-pipedrive`) and its settings, secrets included (stored encrypted).',
}

const schemas = {
  PingOffer: record({
    ping_id: {
      type: 'string',
      description:
        'Post the lead with this `ping_id` before `expires_at`: it sells at the offer’s payout. Signed; bound to the ping’s fields, which the lead must repeat.',
    },
    offer: nullable(
      record({
        payout_cents: { type: 'integer', minimum: 0 },
        currency: ref('Currency'),
      })
    ),
    expires_at: ref('Timestamp'),
  }),
  Destination: record({
    id: ref('Id'),
    buyer_id: ref('Id'),
    name: { type: 'string' },
    kind: { type: 'string', enum: ['webhook', 'http', 'email', 'crm'] },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    http: {
      ...nullable({ type: 'object' }),
      description:
        'As given, without its secrets; `auth` says which secret it holds (`token_set: true`…).',
    },
    email: nullable(record({ to: ref('Email') })),
    crm: {
      ...nullable({ type: 'object' }),
      description: '`{plugin, settings}` without the secret settings.',
    },
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  DestinationPage: {
    type: 'object',
    properties: {
      data: arrayOf(ref('Destination')),
      next_cursor: nullable({ type: 'string' }),
    },
    required: ['data', 'next_cursor'],
  },
  DestinationCreated: {
    allOf: [
      ref('Destination'),
      {
        type: 'object',
        properties: {
          signing_secret: {
            type: 'string',
            description:
              'http only, shown once: the `whsec_` key that signs every request to the buyer (`X-Leadgate-Signature`, Standard Webhooks headers).',
          },
        },
      },
    ],
  },
  DestinationTest: record({
    request: {
      ...nullable({ type: 'object' }),
      description: '`{method, url, headers, body}` as sent, secrets masked.',
    },
    response: nullable(record({ status: { type: 'integer' }, body: nullable({ type: 'string' }) })),
    outcome: {
      type: 'string',
      enum: ['accepted', 'rejected', 'duplicate', 'timeout', 'error'],
    },
    reason: nullable({ type: 'string' }),
    buyer_lead_id: nullable({ type: 'string' }),
    price_cents: nullable(ref('Cents')),
    duration_ms: { type: 'integer' },
  }),
  SaleAnswer: {
    type: 'object',
    description:
      'The sale as the publisher hears it: whether the lead sold and, when it did, the publisher’s own payout. Never the buyer or the price.',
    properties: {
      status: saleStatus,
      payout_cents: { ...ref('Cents'), description: 'The publisher’s payout, once sold.' },
    },
    required: ['status'],
  },
  SaleSettings: record({
    max_sales: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SHARED_SALES,
      default: SALE_DEFAULTS.maxSales,
      description:
        'How many buyers may share a lead: the sale takes the best exclusive sale or the best set of shared ones to distinct buyers, whichever earns more.',
    },
    deadline_seconds: {
      type: 'integer',
      default: SALE_DEFAULTS.deadlineSeconds,
      description: 'How long a lead may fall through from buyer to buyer before it is left unsold.',
    },
    tmax_ms: {
      type: 'integer',
      default: SALE_DEFAULTS.tmaxMs,
      description: 'How long an auction waits for bids (ping-post).',
    },
    auction: {
      type: 'string',
      enum: ['first_price', 'second_price'],
      default: SALE_DEFAULTS.auction,
      description: 'What the winner of an auction pays: its bid, or the second bid plus one cent.',
    },
    ping_policy: {
      type: 'object',
      additionalProperties: { type: 'string', enum: [...PING_TREATMENTS] },
      default: DEFAULT_PING_POLICY,
      description:
        'What a ping carries of each field (`contact.postal_code`, `contact.country`, `provenance.source`, `provenance.campaign`, `provenance.landing_page`, `attributes.*`, `attributes.<name>`): `plain`, `bucketed` (a postal code as its area, a number as its band of ten) or `never`. A patch merges field by field. `contact.name`, `contact.email` and `contact.phone` are never pinged: only `never` may be said of them. A field no entry names never leaves.',
    },
  }),
  SaleRecord: {
    type: 'object',
    properties: {
      buyer_id: ref('Id'),
      destination_id: nullable(ref('Id')),
      price_cents: ref('Cents'),
      payout_cents: { ...ref('Cents'), description: 'Operator only.' },
      routing_rule_id: { ...nullable(ref('Id')), description: 'Operator only.' },
      currency: ref('Currency'),
      exclusive: { type: 'boolean' },
      buyer_lead_id: {
        ...nullable({ type: 'string' }),
        description: 'The buyer’s own id for the lead, when its system answered one.',
      },
      sold_at: ref('Timestamp'),
    },
    required: ['buyer_id', 'price_cents', 'currency', 'exclusive', 'sold_at'],
  },
  SaleAttempt: record({
    id: ref('Id'),
    buyer_id: ref('Id'),
    destination_id: nullable(ref('Id')),
    destination_kind: { type: 'string', enum: ['webhook', 'http', 'email', 'crm'] },
    kind: { type: 'string', enum: ['ping', 'post'] },
    outcome: {
      type: 'string',
      enum: ['pending', 'accepted', 'rejected', 'duplicate', 'timeout', 'error', 'bid', 'no_bid'],
      description: '`pending` while the post is in flight.',
    },
    reason: {
      ...nullable({ type: 'string' }),
      description:
        'The buyer’s reason, or a code: `http_503`, `timeout`, `redirect`, `interrupted`…',
    },
    bid_cents: nullable(ref('Cents')),
    http_status: nullable({ type: 'integer' }),
    buyer_lead_id: nullable({ type: 'string' }),
    response_excerpt: {
      ...nullable({ type: 'string' }),
      description: 'The first 20 KB of what the buyer’s system answered.',
    },
    duration_ms: nullable({ type: 'integer' }),
    at: ref('Timestamp'),
  }),
  Sale: {
    type: 'object',
    description:
      'The operator reads the whole sale; a buyer its own sale and attempts; the publisher `status` and `payout_cents` only.',
    properties: {
      status: saleStatus,
      payout_cents: nullable(ref('Cents')),
      sales: arrayOf(ref('SaleRecord')),
      attempts: arrayOf(ref('SaleAttempt')),
    },
    required: ['status'],
  },
}

export const selling: Section = {
  tags: [
    {
      name: 'Selling',
      description:
        'How each buyer takes leads (destinations) and how a lead was sold: every offer to a buyer, its answer and the sales it made.',
    },
  ],
  schemas,
  paths: {
    '/v1/buyers/{id}/destinations': {
      parameters: [param('Id')],
      get: operation('/v1/buyers/{id}/destinations', {
        ...list(
          'listDestinations',
          'Selling',
          "A buyer's destinations",
          'Destination',
          'The operator reads any buyer’s; a buyer its own (another buyer answers 404).',
          queryParameters(listDestinationsValidator).filter(
            (parameter: any) => !['limit', 'cursor'].includes(parameter.name)
          )
        ),
      }),
      post: operation('/v1/buyers/{id}/destinations', {
        id: 'createDestination',
        tag: 'Selling',
        summary: 'Add a destination',
        description:
          'How the buyer takes leads; a routing rule names it (`destination_id`). Every setting is checked before anything is stored. The operator for any buyer; a buyer for itself.',
        scope: 'submit',
        body: fromValidator(createDestinationValidator, {
          name: 'DestinationCreate',
          docs: destinationDocs,
          example: { name: 'Our CRM', kind: 'http', http: httpExample },
        }),
        success: {
          status: 201,
          description: 'The destination; an http one with its signing secret, shown once.',
          schema: ref('DestinationCreated'),
        },
      }),
    },
    '/v1/buyers/{id}/destinations/{destination_id}': {
      parameters: [param('Id'), param('DestinationId')],
      get: operation('/v1/buyers/{id}/destinations/{destination_id}', {
        id: 'getDestination',
        tag: 'Selling',
        summary: 'Get a destination',
        scope: 'read',
        success: { status: 200, description: 'The destination.', schema: ref('Destination') },
      }),
      patch: operation('/v1/buyers/{id}/destinations/{destination_id}', {
        id: 'updateDestination',
        tag: 'Selling',
        summary: 'Change a destination',
        description:
          'Its kind stays; the settings given replace the stored ones whole (a secret left out stays).',
        scope: 'submit',
        body: fromValidator(updateDestinationValidator, {
          name: 'DestinationUpdate',
          docs: { name: destinationDocs.name, http: destinationDocs.http },
          example: { name: 'Our CRM (new endpoint)' },
        }),
        success: { status: 200, description: 'The destination.', schema: ref('Destination') },
      }),
      delete: operation('/v1/buyers/{id}/destinations/{destination_id}', {
        id: 'deleteDestination',
        tag: 'Selling',
        summary: 'Remove a destination',
        description: 'A destination a routing rule names answers 409 `destination_in_use`.',
        scope: 'submit',
        success: { status: 204, description: 'Removed.' },
        errors: [409],
      }),
    },
    '/v1/buyers/{id}/destinations/{destination_id}/test': {
      parameters: [param('Id'), param('DestinationId')],
      post: operation('/v1/buyers/{id}/destinations/{destination_id}/test', {
        id: 'testDestination',
        tag: 'Selling',
        summary: 'Send a test lead',
        description:
          'Sends the sample lead (or yours) for real, as a sale would, and answers what was sent (secrets masked), what came back and how the response rules read it. Nothing is sold.',
        scope: 'submit',
        body: fromValidator(testDestinationValidator, {
          name: 'DestinationTestRequest',
          docs: { lead: 'Parts of a lead to send instead of the sample’s.' },
          example: { lead: { attributes: { product: 'solar' } } },
        }),
        success: { status: 200, description: 'What happened.', schema: ref('DestinationTest') },
      }),
    },
    '/v1/pings': {
      post: operation('/v1/pings', {
        id: 'pingLead',
        tag: 'Selling',
        summary: 'Ping a lead for an offer',
        description:
          'Needs a publisher key with `submit`. The partial lead (no name, e-mail or phone: 422 `contact_not_allowed`) goes to a real auction among the buyers its rules would sell to; the answer is the publisher’s payout of the best bid or fixed price, or `offer: null`. Post the full lead to `POST /v1/leads` with `ping_id` before `expires_at` (at most 2 minutes): the same fields, or 409 `ping_mismatch`.',
        scope: 'submit',
        body: fromValidator(pingValidator, {
          name: 'PingSubmission',
          docs: {
            publisher: 'The publisher’s slug, as for a lead.',
            contact: 'Only where the consumer is: postal code and country.',
          },
          example: {
            publisher: 'acme-media',
            provenance: { source: 'google', campaign: 'solar-q4' },
            contact: { postal_code: '1012 AB', country: 'NL' },
            attributes: { age: 41, homeowner: true },
          },
        }),
        success: { status: 200, description: 'The offer.', schema: ref('PingOffer') },
      }),
    },
    '/v1/publishers/{id}/posting-spec': {
      parameters: [param('Id')],
      get: operation('/v1/publishers/{id}/posting-spec', {
        id: 'getPostingSpec',
        tag: 'Selling',
        summary: 'A publisher’s posting spec',
        description:
          'An OpenAPI 3.1 document of `POST /v1/leads` and `POST /v1/pings` for this publisher: the fields its quality rules require and allow, examples with its slug, and every reason (`PostingReason`) and problem (`PostingProblem`) a lead or ping can get. `info.version` is the spec’s version: a change of the rules makes the next one, with its changes in `info.x-leadgate-changes` (every version in `info.x-leadgate-versions`), mailed to the publisher’s users. The operator reads any publisher’s; a publisher its own.',
        scope: 'read',
        success: {
          status: 200,
          description: 'The posting spec.',
          schema: { type: 'object', description: 'An OpenAPI 3.1 document.' },
        },
      }),
    },
    '/v1/leads/{id}/sale': {
      parameters: [param('Id')],
      get: operation('/v1/leads/{id}/sale', {
        id: 'getLeadSale',
        tag: 'Selling',
        summary: 'How a lead was sold',
        description:
          'Every offer of the lead to a buyer (kind, outcome, the buyer’s reason, timing) and the sales it made. The operator sees all of it; a buyer only its own part; the publisher whether it sold and its own payout.',
        scope: 'read',
        success: { status: 200, description: 'The sale.', schema: ref('Sale') },
      }),
    },
  },
}
