import { EVENT_TYPES } from '#services/webhooks/event_schemas'
import {
  arrayOf,
  list,
  nullable,
  operation,
  param,
  record,
  ref,
  strictObject,
  type Section,
} from './helpers.js'

/** Integrations: plugins enabled per label by the operator (docs/plugins.md). */
const TAG = 'Integrations'
const pluginName = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'The plugin, e.g. `crm-hubspot`.',
  schema: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,62}$' },
}
const deliveryId = {
  name: 'delivery',
  in: 'path',
  required: true,
  schema: ref('Id'),
}
const events = arrayOf(
  { type: 'string', enum: [...EVENT_TYPES] },
  { minItems: 1, uniqueItems: true }
)
const settingsSchema = {
  type: 'object',
  description:
    "Values for the plugin's settings (its manifest's `settings`). Secret ones are write-only: stored encrypted, never returned.",
  additionalProperties: true,
}

const schemas = {
  PluginManifest: record(
    {
      name: { type: 'string' },
      version: { type: 'string' },
      kind: { type: 'string', enum: ['crm', 'call_tracking', 'notification', 'other'] },
      description: { type: 'string' },
      events: arrayOf({ type: 'string' }),
      defaultEvents: arrayOf({ type: 'string' }),
      settings: {
        type: 'object',
        description:
          'Setting name → `{type: string|boolean|mapping, label, description?, required?, secret?, format?, default?}`.',
        additionalProperties: { type: 'object' },
      },
    },
    { required: ['name', 'version', 'kind', 'description', 'events', 'settings'] }
  ),
  PluginInstallation: record({
    id: ref('Id'),
    label_id: ref('Id'),
    plugin: { type: 'string' },
    version: nullable({ type: 'string' }),
    environment: { type: 'string', enum: ['live', 'sandbox'] },
    status: { type: 'string', enum: ['enabled', 'paused', 'disabled'] },
    events: arrayOf({ type: 'string' }),
    settings: { type: 'object', description: 'The settings that are not secret.' },
    secrets_set: arrayOf(
      { type: 'string' },
      { description: 'Which secret settings hold a value.' }
    ),
    health: record({
      failing_since: nullable({ type: 'string', format: 'date-time' }),
      last_success_at: nullable({ type: 'string', format: 'date-time' }),
      disabled_reason: nullable({ type: 'string' }),
    }),
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  PluginInstallRequest: strictObject(
    { plugin: { type: 'string' }, events, settings: settingsSchema, enabled: { type: 'boolean' } },
    ['plugin']
  ),
  PluginUpdateRequest: strictObject({
    events,
    settings: settingsSchema,
    enabled: { type: 'boolean' },
  }),
}

const installation = `/v1/labels/{id}/plugins/{name}`

export const plugins: Section = {
  tags: [
    {
      name: TAG,
      description:
        'Integration plugins (CRM sync) the operator enables per label. Each delivers through the webhook machinery: the same retries, health, delivery log, retry and replay.',
    },
  ],
  schemas,
  paths: {
    '/v1/plugins': {
      get: operation('/v1/plugins', {
        id: 'getAvailablePlugins',
        tag: TAG,
        summary: 'The plugins this installation loaded',
        description: 'With `broken`: the plugin folders that did not load, and why.',
        scope: 'read',
        success: {
          status: 200,
          description: 'The manifests.',
          schema: record({
            data: arrayOf(ref('PluginManifest')),
            broken: arrayOf(record({ folder: { type: 'string' }, error: { type: 'string' } })),
          }),
        },
      }),
    },
    '/v1/labels/{id}/plugins': {
      parameters: [param('Id')],
      get: operation('/v1/labels/{id}/plugins', {
        id: 'getLabelPlugins',
        tag: TAG,
        summary: 'The plugins enabled for a label',
        scope: 'read',
        success: {
          status: 200,
          description: 'The installations, in the caller’s environment.',
          schema: record({ data: arrayOf(ref('PluginInstallation')) }),
        },
      }),
      post: operation('/v1/labels/{id}/plugins', {
        id: 'enableLabelPlugin',
        tag: TAG,
        summary: 'Enable a plugin for a label',
        scope: 'submit',
        body: {
          schema: ref('PluginInstallRequest'),
          example: {
            plugin: 'crm-hubspot',
            events: ['lead.received'],
            settings: { access_token: 'pat-na1-…', field_mapping: { email: 'contact.email' } },
          },
        },
        success: { status: 201, description: 'Enabled.', schema: ref('PluginInstallation') },
        errors: [409],
      }),
    },
    [installation]: {
      parameters: [param('Id'), pluginName],
      get: operation(installation, {
        id: 'getLabelPlugin',
        tag: TAG,
        summary: 'A label’s plugin installation',
        scope: 'read',
        success: {
          status: 200,
          description: 'The installation.',
          schema: ref('PluginInstallation'),
        },
      }),
      patch: operation(installation, {
        id: 'updateLabelPlugin',
        tag: TAG,
        summary: 'Change events, settings or status',
        description: 'Settings merge into the stored ones; a secret left out keeps its value.',
        scope: 'submit',
        body: {
          schema: ref('PluginUpdateRequest'),
          example: { events: ['lead.received', 'match.found'], enabled: true },
        },
        success: {
          status: 200,
          description: 'The installation.',
          schema: ref('PluginInstallation'),
        },
      }),
      delete: operation(installation, {
        id: 'disableLabelPlugin',
        tag: TAG,
        summary: 'Remove a plugin from a label',
        description: 'Its delivery log goes with it; what it synced stays in the remote system.',
        scope: 'submit',
        success: { status: 204, description: 'Removed.' },
      }),
    },
    [`${installation}/deliveries`]: {
      parameters: [param('Id'), pluginName],
      get: operation(
        `${installation}/deliveries`,
        list(
          'listLabelPluginDeliveries',
          TAG,
          'The delivery log of a plugin installation',
          'WebhookDelivery',
          'Each delivery’s attempts are at `GET /v1/webhook-deliveries/{id}`.',
          [
            { name: 'status', in: 'query', schema: ref('DeliveryStatus') },
            { name: 'type', in: 'query', schema: { type: 'string', enum: [...EVENT_TYPES] } },
          ]
        )
      ),
    },
    [`${installation}/deliveries/{delivery}/retry`]: {
      parameters: [param('Id'), pluginName, deliveryId],
      post: operation(`${installation}/deliveries/{delivery}/retry`, {
        id: 'retryLabelPluginDelivery',
        tag: TAG,
        summary: 'Resend a plugin delivery now',
        scope: 'submit',
        success: { status: 202, description: 'Scheduled.', schema: ref('WebhookDelivery') },
        errors: [409],
      }),
    },
    [`${installation}/test`]: {
      parameters: [param('Id'), pluginName],
      post: operation(`${installation}/test`, {
        id: 'testLabelPlugin',
        tag: TAG,
        summary: 'Test the connection',
        description: 'Reaches the remote system with the stored settings; writes nothing there.',
        scope: 'submit',
        success: {
          status: 200,
          description: 'Whether the remote system took the settings.',
          schema: record({ ok: { type: 'boolean' }, detail: { type: 'string' } }),
        },
      }),
    },
  },
}
