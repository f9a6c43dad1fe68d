import {
  EVENT_DATA_SCHEMAS,
  EVENT_DATA_SCHEMA_OF,
  EVENT_TYPES,
  envelopeSchema,
} from '#services/webhooks/event_schemas'
import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
  type Section,
} from './helpers.js'
import { pageValidator } from '#validators/pagination'
import {
  bulkRetryValidator,
  createWebhookEndpointValidator,
  deliveriesValidator,
  endpointDeliveriesValidator,
  recoverValidator,
  updateWebhookEndpointValidator,
} from '#validators/webhook_endpoint'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'

/**
 * Webhook endpoints, their deliveries and replay; and the events Leadgate
 * sends, whose payload schemas come from the event registry that checks
 * every event before it is published.
 */
const secret = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'Shown only in this response: `whsec_` and the base64 of 32 random bytes.',
}
const endpointUrl = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description:
    'http or https (https in production); loopback, private and link-local addresses are refused.',
  examples: ['https://crm.example/hooks/leadgate'],
}
const endpointSettings = {
  description: nullable({ type: 'string', maxLength: 500 }),
  fifo: {
    type: 'boolean',
    description:
      'One delivery in flight per ordering key (the lead), so events of a lead arrive in order.',
  },
  rate_limit_per_second: {
    ...nullable({ type: 'integer', minimum: 1, maximum: 10000 }),
    description:
      'Throttle deliveries to this endpoint; a throttled delivery waits without spending an attempt.',
  },
}

const deliveryFilters = { from: 'Created at or after.', to: 'Created before.' }

const endpointDocs: Docs = {
  url: { description: endpointUrl.description, examples: endpointUrl.examples },
  fifo: endpointSettings.fifo.description,
  rate_limit_per_second: endpointSettings.rate_limit_per_second.description,
}

const shapes: Record<string, Docs> = {
  EventType: { '': 'What an endpoint can subscribe to.' },
}

const schemas = {
  WebhookEndpoint: {
    type: 'object',
    required: ['id', 'url', 'events', 'status', 'owner', 'publisher_id', 'buyer_id', 'created_at'],
    properties: {
      id: ref('Id'),
      url: { type: 'string', format: 'uri' },
      events: arrayOf(ref('EventType')),
      ...endpointSettings,
      status: { type: 'string', enum: ['enabled', 'disabled', 'paused'] },
      owner: { type: 'string', enum: ['operator', 'publisher', 'buyer'] },
      publisher_id: nullable(ref('Id')),
      buyer_id: nullable(ref('Id')),
      environment: ref('Environment'),
      disabled_reason: nullable({ type: 'string', enum: ['manual', 'gone', 'failing'] }),
      disabled_at: nullable(ref('Timestamp')),
      paused_until: {
        ...nullable(ref('Timestamp')),
        description: 'The circuit breaker holds deliveries until then.',
      },
      failing_since: nullable(ref('Timestamp')),
      last_success_at: nullable(ref('Timestamp')),
      previous_secret_expires_at: {
        ...nullable(ref('Timestamp')),
        description: 'After a rotation the old secret signs beside the new one until then.',
      },
      created_at: ref('Timestamp'),
      updated_at: ref('Timestamp'),
    },
  },
  WebhookEndpointCreated: { allOf: [ref('WebhookEndpoint'), record({ secret })] },
  WebhookEndpointPage: page('WebhookEndpoint'),
  SecretRotation: record({
    secret,
    previous_secret_expires_at: {
      ...ref('Timestamp'),
      description: 'The old secret keeps signing beside the new one until then (24 h).',
    },
  }),
  WebhookDelivery: {
    type: 'object',
    required: ['id', 'event_id', 'endpoint_id', 'type', 'status', 'attempts', 'created_at'],
    properties: {
      id: ref('Id'),
      event_id: ref('Id'),
      endpoint_id: ref('Id'),
      type: { type: 'string', enum: [...EVENT_TYPES] },
      status: ref('DeliveryStatus'),
      attempts: { type: 'integer', minimum: 0 },
      next_attempt_at: nullable(ref('Timestamp')),
      next_trigger: { type: 'string', enum: ['auto', 'manual', 'recover'] },
      last_attempt_at: nullable(ref('Timestamp')),
      last_response_status: nullable({ type: 'integer' }),
      last_error: nullable({ type: 'string' }),
      succeeded_at: nullable(ref('Timestamp')),
      event_created_at: nullable(ref('Timestamp')),
      created_at: ref('Timestamp'),
    },
  },
  WebhookAttempt: {
    type: 'object',
    required: ['attempt', 'trigger', 'started_at', 'succeeded'],
    properties: {
      attempt: { type: 'integer', minimum: 1 },
      trigger: { type: 'string', enum: ['auto', 'manual', 'recover', 'probe'] },
      started_at: ref('Timestamp'),
      succeeded: { type: 'boolean' },
      status_code: nullable({ type: 'integer' }),
      latency_ms: nullable({ type: 'integer', minimum: 0 }),
      error: nullable({ type: 'string' }),
      error_detail: nullable({ type: 'string' }),
      response_excerpt: {
        ...nullable({ type: 'string' }),
        description: 'Up to 20 KB of the answer.',
      },
    },
  },
  WebhookDeliveryLog: {
    allOf: [ref('WebhookDelivery'), record({ attempt_log: arrayOf(ref('WebhookAttempt')) })],
    description: 'One event at one endpoint, with every attempt, oldest first.',
  },
  WebhookDeliveryPage: page('WebhookDelivery'),
  RecoveryTask: {
    type: 'object',
    required: ['id', 'kind', 'status', 'created_at'],
    properties: {
      id: ref('Id'),
      kind: { type: 'string', enum: ['recover', 'retry'] },
      status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
      endpoint_id: nullable(ref('Id')),
      trigger: { type: 'string', enum: ['manual', 'probe'] },
      filter: { type: 'object', description: 'What the task resends.' },
      scheduled: {
        ...nullable({ type: 'integer', minimum: 0 }),
        description: 'Deliveries scheduled.',
      },
      error: nullable({ type: 'string' }),
      created_at: ref('Timestamp'),
      started_at: nullable(ref('Timestamp')),
      completed_at: nullable(ref('Timestamp')),
    },
    description: 'A tracked background task that resends deliveries.',
  },
  Replay: record({
    event_id: ref('Id'),
    deliveries: { type: 'integer', minimum: 0, description: 'Deliveries scheduled.' },
  }),
  ...EVENT_DATA_SCHEMAS,
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
    'Standard Webhooks: `v1,<base64>` of the same HMAC; several, space-separated, during a secret rotation.',
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
        'Signed event delivery, compatible with Standard Webhooks. Failed deliveries are retried for about a day and a half; each can be resent, an outage window recovered and an event replayed.',
    },
  ],
  schemas,
  shapes,
  paths: {
    '/v1/webhook-endpoints': {
      post: operation('/v1/webhook-endpoints', {
        id: 'createWebhookEndpoint',
        tag: 'Webhooks',
        summary: 'Subscribe an endpoint',
        scope: 'submit',
        body: fromValidator(createWebhookEndpointValidator, {
          name: 'WebhookEndpointCreate',
          docs: {
            ...endpointDocs,
            '': { checkedByService: { not: { required: ['publisher_id', 'buyer_id'] } } },
            'publisher_id': 'Operator only: the publisher whose events this endpoint receives.',
            'buyer_id': 'Operator only: the buyer whose events this endpoint receives.',
          },
          example: {
            url: 'https://crm.example/hooks/leadgate',
            events: ['lead.received', 'match.found'],
            description: 'CRM sync',
          },
        }),
        success: {
          status: 201,
          description: 'The endpoint, with its signing secret.',
          schema: ref('WebhookEndpointCreated'),
        },
      }),
      get: operation(
        '/v1/webhook-endpoints',
        list(
          'listWebhookEndpoints',
          'Webhooks',
          'List endpoints',
          'WebhookEndpoint',
          undefined,
          queryParameters(pageValidator)
        )
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
        body: fromValidator(updateWebhookEndpointValidator, {
          name: 'WebhookEndpointUpdate',
          mergePatch: true,
          docs: endpointDocs,
          example: { events: ['lead.received'], status: 'enabled' },
        }),
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
      get: operation(
        '/v1/webhook-endpoints/{id}/deliveries',
        list(
          'listWebhookDeliveries',
          'Webhooks',
          "List an endpoint's deliveries",
          'WebhookDelivery',
          undefined,
          queryParameters(endpointDeliveriesValidator, deliveryFilters)
        )
      ),
    },
    '/v1/webhook-deliveries': {
      get: operation(
        '/v1/webhook-deliveries',
        list(
          'listWebhookDeliveriesAcrossEndpoints',
          'Webhooks',
          'List deliveries across your endpoints',
          'WebhookDelivery',
          'E.g. every exhausted delivery, to retry them in bulk.',
          queryParameters(deliveriesValidator, deliveryFilters)
        )
      ),
    },
    '/v1/webhook-deliveries/retry': {
      post: operation('/v1/webhook-deliveries/retry', {
        id: 'retryWebhookDeliveries',
        tag: 'Webhooks',
        summary: 'Resend deliveries in bulk',
        description: 'A tracked background task resends every delivery the filter selects.',
        scope: 'submit',
        body: fromValidator(bulkRetryValidator, {
          name: 'BulkRetryRequest',
          docs: {
            '': 'Selects the deliveries to resend; every exhausted one of your endpoints when empty.',
            'status': { default: 'exhausted' },
          },
          example: { status: 'exhausted', type: 'lead.received' },
        }),
        success: { status: 202, description: 'The task.', schema: ref('RecoveryTask') },
      }),
    },
    '/v1/webhook-deliveries/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/webhook-deliveries/{id}', {
        id: 'getWebhookDelivery',
        tag: 'Webhooks',
        summary: 'Get a delivery and its attempts',
        scope: 'read',
        success: {
          status: 200,
          description: 'The delivery log.',
          schema: ref('WebhookDeliveryLog'),
        },
      }),
    },
    '/v1/webhook-recoveries/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/webhook-recoveries/{id}', {
        id: 'getWebhookRecovery',
        tag: 'Webhooks',
        summary: 'Follow a recovery or bulk-retry task',
        scope: 'read',
        success: { status: 200, description: 'The task.', schema: ref('RecoveryTask') },
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
        errors: [409],
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
        body: fromValidator(recoverValidator, {
          name: 'RecoveryRequest',
          docs: { until: 'Now when omitted.' },
          example: { since: '2025-01-30T00:00:00Z' },
        }),
        success: { status: 202, description: 'The task.', schema: ref('RecoveryTask') },
        errors: [409],
      }),
    },
    '/v1/events/{event_id}/replay': {
      parameters: [{ name: 'event_id', in: 'path', required: true, schema: ref('Id') }],
      post: operation('/v1/events/{event_id}/replay', {
        id: 'replayEvent',
        tag: 'Webhooks',
        summary: 'Replay an event to every subscribed endpoint',
        scope: 'submit',
        success: {
          status: 202,
          description: 'Deliveries scheduled, with the same `event_id`.',
          schema: ref('Replay'),
        },
      }),
    },
  },
  webhooks: Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const data = EVENT_DATA_SCHEMA_OF[type]
      return [
        type,
        {
          post: {
            operationId: `event.${type}`,
            summary: `${type}`,
            description: (EVENT_DATA_SCHEMAS[data].description as string | undefined) ?? '',
            parameters: signatureHeaders,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: envelopeSchema(type, ref(data)) } },
            },
            responses: {
              '2XX': {
                description: 'Received. Anything else is retried; 410 disables the endpoint.',
              },
            },
          },
        },
      ]
    })
  ),
}
