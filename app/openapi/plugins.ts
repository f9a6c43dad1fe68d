import { CALL_VENDORS } from '#services/calls/call_vendors'
import { NO_CODE_PLATFORMS } from '#services/plugins/no_code_templates'
import { arrayOf, list, nullable, operation, param, record, ref, type Section } from './helpers.js'
import { callValidator } from '#validators/call'
import {
  installPluginValidator,
  pluginDeliveriesValidator,
  updatePluginValidator,
} from '#validators/plugin'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'

/** Integrations: plugins enabled per label by the operator (docs/plugins.md). */
const TAG = 'Integrations'
const pluginName = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'The plugin, e.g. `crm-hubspot`, or the installation’s id.',
  schema: { type: 'string', maxLength: 64 },
}
const pluginDocs: Docs = {
  events:
    'At least one, except for an inbound-only plugin (one that lists no events, e.g. `calls-callrail`), which takes none.',
  settings:
    "Values for the plugin's settings (its manifest's `settings`). Secret ones are write-only: stored encrypted, never returned.",
}

const schemas: Record<string, Record<string, unknown>> = {
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
}

schemas.Call = record({
  id: ref('Id'),
  vendor: { type: 'string', enum: ['api', 'ringba', 'retreaver', 'callrail', 'invoca'] },
  vendor_call_id: { type: 'string' },
  environment: { type: 'string', enum: ['live', 'sandbox'] },
  status: {
    type: 'string',
    enum: ['attached', 'unmatched', 'ambiguous'],
    description: '`ambiguous`: several leads matched the phone; none was chosen.',
  },
  lead_id: nullable(ref('Id')),
  matched_by: nullable({ type: 'string', enum: ['lead_id', 'phone'] }),
  tracking_number: nullable({ type: 'string' }),
  started_at: ref('Timestamp'),
  duration_seconds: nullable({ type: 'integer' }),
  disposition: nullable({ type: 'string' }),
  recording_url: nullable({ type: 'string' }),
  campaign: nullable({ type: 'string' }),
  created_at: ref('Timestamp'),
  updated_at: ref('Timestamp'),
})
const callAnswer = {
  status: 201,
  description: 'Recorded (200 when the call id was known: updated).',
  schema: {
    allOf: [
      ref('Call'),
      record({
        candidates: arrayOf(ref('Id'), { description: 'The leads an ambiguous phone matched.' }),
      }),
    ],
  },
}

/** One path per vendor, each taking that vendor's own webhook body (docs/calls.md). */
const VENDOR_EXAMPLES: Record<(typeof CALL_VENDORS)[number], Record<string, unknown>> = {
  ringba: {
    inboundCallId: 'RGB-5678',
    inboundPhoneNumber: '+31612345678',
    callStartTime: '2026-11-27T10:00:00Z',
    callLengthInSeconds: 42,
  },
  retreaver: {
    call_uuid: 'RTV-5678',
    caller_number: '+31612345678',
    start_time: '2026-11-27T10:00:00Z',
  },
  callrail: {
    resource_id: 'CAL5678',
    customer_phone_number: '+31612345678',
    start_time: '2026-11-27T10:00:00Z',
    answered: true,
  },
  invoca: {
    complete_call_id: 'INV-5678',
    calling_phone_number: '+31612345678',
    start_time_utc: 1795773600000,
  },
}
const vendorCallPaths = Object.fromEntries(
  CALL_VENDORS.map((vendor) => [
    `/v1/calls/${vendor}`,
    {
      post: operation(`/v1/calls/${vendor}`, {
        id: `create${vendor[0].toUpperCase()}${vendor.slice(1)}Call`,
        tag: TAG,
        summary: `Report a call in ${vendor}'s webhook format`,
        description:
          vendor === 'callrail'
            ? "CallRail's post-call webhook body (docs/calls.md), mapped to a call. When the caller's label has `calls-callrail` enabled with a signing key, the `Signature` header must hold base64(HMAC-SHA1(key, raw body)); otherwise 401 `invalid_signature` and nothing is stored."
            : "The vendor's documented field names (docs/calls.md), mapped to a call.",
        scope: 'submit',
        ...(vendor === 'callrail'
          ? {
              parameters: [
                {
                  name: 'Signature',
                  in: 'header',
                  required: false,
                  description:
                    "CallRail's signature of the raw body, checked when a signing key is set.",
                  schema: { type: 'string' },
                },
              ],
            }
          : {}),
        body: {
          schema: { type: 'object', additionalProperties: true },
          example: VENDOR_EXAMPLES[vendor],
        },
        success: callAnswer,
      }),
    },
  ])
)

const templatePaths = Object.fromEntries(
  NO_CODE_PLATFORMS.map((platform) => [
    `/v1/labels/{id}/templates/${platform}`,
    {
      parameters: [param('Id')],
      get: operation(`/v1/labels/{id}/templates/${platform}`, {
        id: `get${platform === 'n8n' ? 'N8n' : platform[0].toUpperCase() + platform.slice(1)}Template`,
        tag: TAG,
        summary: `A ready-to-import ${platform} file for the label`,
        description:
          'Receives the label’s events with the signature verified, branches per event type, and posts leads back to `/v1/requests` (docs/integrations.md). Sent as an attachment.',
        scope: 'read',
        success: { status: 200, description: 'The file.', schema: { type: 'object' } },
      }),
    },
  ])
)

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
    '/v1/calls': {
      post: operation('/v1/calls', {
        id: 'createCall',
        tag: TAG,
        summary: 'Report a call',
        description:
          'Attaches to the lead id given, else to the one lead whose phone called within the window after it arrived (docs/calls.md). Several matches are reported, never guessed.',
        scope: 'submit',
        body: fromValidator(callValidator, {
          name: 'CallRequest',
          docs: {
            call_id: "The vendor's call id; a repeat updates.",
            caller_number: 'Finds the lead when no lead id is given; never stored.',
            lead_id: 'The lead the vendor passed through.',
            country: 'Reads a caller number without a country code.',
          },
          example: {
            call_id: 'RGB-1234',
            caller_number: '+31612345678',
            started_at: '2026-11-27T10:00:00Z',
            duration_seconds: 95,
            disposition: 'answered',
          },
        }),
        success: callAnswer,
      }),
    },
    ...vendorCallPaths,
    ...templatePaths,
    '/v1/leads/{id}/plugin-syncs': {
      parameters: [param('Id')],
      get: operation('/v1/leads/{id}/plugin-syncs', {
        id: 'getLeadPluginSyncs',
        tag: TAG,
        summary: 'What the plugins synced of a lead',
        description:
          'The record each CRM plugin made for the lead (its id there) and when it synced.',
        scope: 'read',
        success: {
          status: 200,
          description: 'Newest first.',
          schema: record({
            data: arrayOf(
              record({
                plugin: { type: 'string' },
                external_id: { type: 'string' },
                synced_at: ref('Timestamp'),
              })
            ),
          }),
        },
      }),
    },
    '/v1/leads/{id}/calls': {
      parameters: [param('Id')],
      get: operation('/v1/leads/{id}/calls', {
        id: 'getLeadCalls',
        tag: TAG,
        summary: "A lead's calls",
        scope: 'read',
        success: {
          status: 200,
          description: 'Newest first.',
          schema: record({ data: arrayOf(ref('Call')) }),
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
        body: fromValidator(installPluginValidator, {
          name: 'PluginInstallRequest',
          docs: pluginDocs,
          example: {
            plugin: 'crm-hubspot',
            events: ['lead.received'],
            settings: { access_token: 'pat-na1-…', field_mapping: { email: 'contact.email' } },
          },
        }),
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
        body: fromValidator(updatePluginValidator, {
          name: 'PluginUpdateRequest',
          docs: pluginDocs,
          example: { events: ['lead.received', 'match.found'], enabled: true },
        }),
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
          'Each delivery’s attempts are at `GET /v1/webhook-deliveries/{id}`; resend one with `POST /v1/webhook-deliveries/{id}/retry`.',
          queryParameters(pluginDeliveriesValidator)
        )
      ),
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
