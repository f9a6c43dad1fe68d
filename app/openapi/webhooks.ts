import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
  strictObject,
  type Section,
} from './helpers.js'

/** Webhook endpoints, their deliveries and replay; and the events Leadgate sends. */
const EVENT_TYPES = [
  'lead.received',
  'consent.recorded',
  'match.found',
  'payout.processed',
  'dispute.opened',
  'dispute.responded',
  'dispute.decided',
  'endpoint.failing',
  'endpoint.disabled',
  'endpoint.recovered',
]
const secret = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'Shown only in this response. Base64 of 32 random bytes after `whsec_`.',
}
const endpointUrl = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description: 'https in production; private and loopback addresses are refused.',
  examples: ['https://crm.example/hooks/leadgate'],
}
const eventList = arrayOf(ref('EventType'), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
})

const schemas = {
  EventType: { type: 'string', enum: EVENT_TYPES },
  DeliveryStatus: { type: 'string', enum: ['pending', 'succeeded', 'failed', 'exhausted'] },
  WebhookEndpointCreate: strictObject(
    {
      url: endpointUrl,
      events: eventList,
      description: { type: 'string', maxLength: 500 },
      publisher_id: {
        ...ref('Id'),
        description: 'Operator only: the publisher whose events this endpoint receives.',
      },
      buyer_id: {
        ...ref('Id'),
        description: 'Operator only: the buyer whose events this endpoint receives.',
      },
    },
    ['url', 'events'],
    { not: { required: ['publisher_id', 'buyer_id'] } }
  ),
  WebhookEndpointUpdate: strictObject({
    url: endpointUrl,
    events: eventList,
    description: { type: 'string', maxLength: 500 },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
  }),
  WebhookEndpoint: record({
    id: ref('Id'),
    url: { type: 'string', format: 'uri' },
    events: arrayOf(ref('EventType')),
    description: nullable({ type: 'string' }),
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    publisher_id: nullable(ref('Id')),
    buyer_id: nullable(ref('Id')),
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  WebhookEndpointCreated: { allOf: [ref('WebhookEndpoint'), record({ secret })] },
  WebhookEndpointPage: page('WebhookEndpoint'),
  SecretRotation: record({
    secret,
    previous_secret_expires_at: {
      ...ref('Timestamp'),
      description: 'The old secret signs beside the new one until then (24 h).',
    },
  }),
  WebhookDelivery: record({
    id: ref('Id'),
    event_id: ref('Id'),
    endpoint_id: ref('Id'),
    type: ref('EventType'),
    status: ref('DeliveryStatus'),
    attempts: { type: 'integer', minimum: 0 },
    next_attempt_at: nullable(ref('Timestamp')),
    last_response_status: nullable({ type: 'integer' }),
    created_at: ref('Timestamp'),
  }),
  WebhookDeliveryPage: page('WebhookDelivery'),
  RecoveryRequest: strictObject(
    { since: ref('Timestamp'), until: { ...ref('Timestamp'), description: 'Now when omitted.' } },
    ['since']
  ),
  Task: record({
    id: ref('Id'),
    status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
    created_at: ref('Timestamp'),
  }),
  Replay: record({
    event_id: ref('Id'),
    deliveries: { type: 'integer', minimum: 0, description: 'Deliveries scheduled.' },
  }),
  EventEnvelope: record({
    event_id: {
      ...ref('Id'),
      description: 'The same on every retry and replay: use it to drop duplicates.',
    },
    type: ref('EventType'),
    created: ref('Timestamp'),
    data: {
      type: 'object',
      description:
        "`lead_id`, `buyer_id`, `provenance {source, campaign}`, `consent {given, timestamp}`; `match.found` carries the lead's contact, provenance and consent too.",
    },
  }),
}

const signatureHeaders = [
  [
    'X-Leadgate-Signature',
    '`sha256=<hex>`: HMAC-SHA256 with the decoded secret over `<event_id>.<unix seconds>.<raw body>`.',
  ],
  ['webhook-id', 'Standard Webhooks: the `event_id`.'],
  ['webhook-timestamp', 'Standard Webhooks: unix seconds. Reject timestamps older than 5 minutes.'],
  [
    'webhook-signature',
    'Standard Webhooks: `v1,<base64>`, several space-separated during a secret rotation.',
  ],
  ['X-Leadgate-Event-Id', 'The `event_id`.'],
  ['X-Leadgate-Timestamp', 'Unix seconds, as signed.'],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}))

export const webhooks: Section = {
  tags: [
    {
      name: 'Webhooks',
      description:
        'Signed event delivery (Standard Webhooks compatible). Failed deliveries are retried for about a day and a half; each can be resent, an outage window recovered and an event replayed.',
    },
  ],
  schemas,
  paths: {
    '/v1/webhook-endpoints': {
      post: operation('/v1/webhook-endpoints', {
        id: 'createWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Subscribe an endpoint',
        scope: 'submit',
        body: {
          schema: ref('WebhookEndpointCreate'),
          example: {
            url: 'https://crm.example/hooks/leadgate',
            events: ['lead.received', 'match.found'],
            description: 'CRM sync',
          },
        },
        success: {
          status: 201,
          description: 'The endpoint, with its signing secret.',
          schema: ref('WebhookEndpointCreated'),
        },
      }),
      get: operation(
        '/v1/webhook-endpoints',
        list('listWebhookEndpoints', 'Webhooks', 'List endpoints', 'WebhookEndpoint')
      ),
    },
    '/v1/webhook-endpoints/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/webhook-endpoints/{id}', {
        id: 'getWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Get an endpoint',
        scope: 'read',
        success: { status: 200, description: 'The endpoint.', schema: ref('WebhookEndpoint') },
      }),
      patch: operation('/v1/webhook-endpoints/{id}', {
        id: 'updateWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Change an endpoint',
        description:
          'Re-enabling a disabled endpoint resumes delivery from now on; recover the outage window separately.',
        scope: 'submit',
        body: {
          schema: ref('WebhookEndpointUpdate'),
          mergePatch: true,
          example: { events: ['lead.received'], status: 'enabled' },
        },
        success: { status: 200, description: 'The endpoint.', schema: ref('WebhookEndpoint') },
      }),
      delete: operation('/v1/webhook-endpoints/{id}', {
        id: 'deleteWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Delete an endpoint',
        scope: 'submit',
        success: { status: 204, description: 'Deleted; pending deliveries are dropped.' },
      }),
    },
    '/v1/webhook-endpoints/{id}/rotate-secret': {
      parameters: [param('Id')],
      post: operation('/v1/webhook-endpoints/{id}/rotate-secret', {
        id: 'rotateWebhookSecret',
        tag: 'Webhooks',
        summary: 'Rotate the signing secret',
        description: 'The old secret keeps signing beside the new one for 24 hours.',
        scope: 'submit',
        success: { status: 200, description: 'The new secret.', schema: ref('SecretRotation') },
      }),
    },
    '/v1/webhook-endpoints/{id}/deliveries': {
      parameters: [param('Id')],
      get: operation('/v1/webhook-endpoints/{id}/deliveries', {
        ...list(
          'listWebhookDeliveries',
          'Webhooks',
          "List an endpoint's deliveries",
          'WebhookDelivery',
          undefined,
          [
            { name: 'status', in: 'query', schema: ref('DeliveryStatus') },
            { name: 'type', in: 'query', schema: ref('EventType') },
            { name: 'from', in: 'query', schema: ref('Timestamp') },
            { name: 'to', in: 'query', schema: ref('Timestamp') },
          ]
        ),
      }),
    },
    '/v1/webhook-deliveries/{id}/retry': {
      parameters: [param('Id')],
      post: operation('/v1/webhook-deliveries/{id}/retry', {
        id: 'retryWebhookDelivery',
        tag: 'Webhooks',
        summary: 'Resend a delivery now',
        scope: 'submit',
        success: { status: 202, description: 'Scheduled.', schema: ref('WebhookDelivery') },
      }),
    },
    '/v1/webhook-endpoints/{id}/recover': {
      parameters: [param('Id')],
      post: operation('/v1/webhook-endpoints/{id}/recover', {
        id: 'recoverWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Recover failed deliveries over a window',
        description:
          'Resends every failed delivery of the endpoint in `[since, until)` as a tracked background task.',
        scope: 'submit',
        body: { schema: ref('RecoveryRequest'), example: { since: '2025-01-30T00:00:00Z' } },
        success: { status: 202, description: 'The task.', schema: ref('Task') },
      }),
    },
    '/v1/events/{event_id}/replay': {
      parameters: [{ name: 'event_id', in: 'path', required: true, schema: ref('Id') }],
      post: operation('/v1/events/{event_id}/replay', {
        id: 'replayEvent',
        tag: 'Webhooks',
        summary: 'Replay an event to every subscribed endpoint',
        scope: 'submit',
        success: { status: 202, description: 'Deliveries scheduled.', schema: ref('Replay') },
      }),
    },
  },
  webhooks: Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event.${type}`,
          summary: `${type} event`,
          parameters: signatureHeaders,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('EventEnvelope') } },
          },
          responses: {
            '2XX': {
              description: 'Received. Anything else is retried; 410 disables the endpoint.',
            },
          },
        },
      },
    ])
  ),
}
