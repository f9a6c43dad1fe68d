import { appUrl } from '#config/app'
import { subscribableBy } from '#services/webhooks/subscription'

export const NO_CODE_PLATFORMS = ['zapier', 'make', 'n8n'] as const
export type NoCodePlatform = (typeof NO_CODE_PLATFORMS)[number]

type LabelRef = { slug: string; customHost: string | null }

/**
 * The Standard Webhooks check every template runs before trusting a
 * delivery: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`
 * with the base64 key after `whsec_`, constant-time against each `v1,`
 * signature, and at most five minutes of clock difference (docs/webhooks.md).
 */
export const VERIFY_FUNCTION = `function verifyLeadgate(secret, headers, rawBody) {
  const crypto = require('crypto')
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  const signatures = String(headers['webhook-signature'] || '')
  if (!id || !timestamp || !secret) return false
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false
  const key = Buffer.from(String(secret).replace(/^whsec_/, ''), 'base64')
  const expected = crypto.createHmac('sha256', key).update(id + '.' + timestamp + '.' + rawBody).digest('base64')
  return signatures.split(' ').some((entry) => {
    const value = Buffer.from(entry.split(',')[1] || '')
    return value.length === expected.length && crypto.timingSafeEqual(value, Buffer.from(expected))
  })
}`

/** n8n's Code node: the Webhook node keeps the raw body as binary `data`. */
export const N8N_CODE = `${VERIFY_FUNCTION}
const item = $input.first()
const raw = Buffer.from(item.binary.data.data, 'base64').toString('utf8')
if (!verifyLeadgate($env.LEADGATE_WEBHOOK_SECRET, item.json.headers, raw)) {
  throw new Error('Leadgate signature did not verify: delivery refused')
}
return [{ json: JSON.parse(raw) }]`

/** Zapier's Code step: Catch Raw Hook hands over the raw body and the headers. */
export const ZAPIER_CODE = `${VERIFY_FUNCTION}
const headers = {
  'webhook-id': inputData.webhook_id,
  'webhook-timestamp': inputData.webhook_timestamp,
  'webhook-signature': inputData.webhook_signature,
}
if (!verifyLeadgate(inputData.secret, headers, inputData.raw_body)) {
  throw new Error('Leadgate signature did not verify: delivery refused')
}
const event = JSON.parse(inputData.raw_body)
output = { event_id: event.event_id, type: event.type, data: JSON.stringify(event.data) }`

function baseUrlOf(label: LabelRef) {
  return label.customHost ? `https://${label.customHost}` : appUrl.replace(/\/$/, '')
}

/** What a delivery to the label's operator can be: the events its endpoints subscribe to. */
function eventsOf() {
  return subscribableBy('operator').filter((type) => !type.startsWith('endpoint.'))
}

/** The reverse direction: a no-code tool delivering a lead to `POST /v1/requests`. */
function requestExample(label: LabelRef) {
  return {
    method: 'POST',
    url: `${baseUrlOf(label)}/v1/requests`,
    headers: { 'Authorization': 'Bearer <publisher key>', 'Content-Type': 'application/json' },
    body: {
      contact: { name: '{{name}}', email: '{{email}}', phone: '{{phone}}', country: 'NL' },
      provenance: { source: 'no-code', campaign: '{{campaign}}' },
      consent: { given: true, text: '{{consent text}}', timestamp: '{{consent time}}' },
    },
  }
}

function n8n(label: LabelRef) {
  const events = eventsOf()
  const reverse = requestExample(label)
  return {
    name: `Leadgate ${label.slug}: verified events`,
    nodes: [
      {
        name: 'Leadgate webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: {
          httpMethod: 'POST',
          path: `leadgate-${label.slug}`,
          responseMode: 'onReceived',
          options: { rawBody: true },
        },
      },
      {
        name: 'Verify signature',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [240, 0],
        parameters: { mode: 'runOnceForAllItems', jsCode: N8N_CODE },
      },
      {
        name: 'By event type',
        type: 'n8n-nodes-base.switch',
        typeVersion: 3,
        position: [480, 0],
        parameters: {
          rules: {
            values: events.map((type) => ({
              outputKey: type,
              conditions: {
                conditions: [
                  {
                    leftValue: '={{ $json.type }}',
                    rightValue: type,
                    operator: { type: 'string', operation: 'equals' },
                  },
                ],
              },
            })),
          },
        },
      },
      {
        name: 'Send a lead to Leadgate',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4,
        position: [0, 240],
        parameters: {
          method: reverse.method,
          url: reverse.url,
          sendHeaders: true,
          headerParameters: {
            parameters: [
              { name: 'Authorization', value: '=Bearer {{ $env.LEADGATE_PUBLISHER_KEY }}' },
            ],
          },
          sendBody: true,
          specifyBody: 'json',
          jsonBody: JSON.stringify(reverse.body, null, 2),
        },
      },
    ],
    connections: {
      'Leadgate webhook': { main: [[{ node: 'Verify signature', type: 'main', index: 0 }]] },
      'Verify signature': { main: [[{ node: 'By event type', type: 'main', index: 0 }]] },
    },
    meta: { leadgate: { label: label.slug, events, secret_variable: 'LEADGATE_WEBHOOK_SECRET' } },
  }
}

function zapier(label: LabelRef) {
  return {
    name: `Leadgate ${label.slug}: verified events`,
    leadgate: {
      label: label.slug,
      events: eventsOf(),
      endpoints: `${baseUrlOf(label)}/v1/webhook-endpoints`,
    },
    steps: [
      {
        app: 'Webhooks by Zapier',
        event: 'Catch Raw Hook',
        note: 'Use its URL as the Leadgate endpoint URL.',
      },
      {
        app: 'Code by Zapier',
        event: 'Run Javascript',
        input_data: {
          raw_body: '{{raw_body}}',
          webhook_id: '{{headers__Webhook-Id}}',
          webhook_timestamp: '{{headers__Webhook-Timestamp}}',
          webhook_signature: '{{headers__Webhook-Signature}}',
          secret: '<the endpoint secret, whsec_…>',
        },
        code: ZAPIER_CODE,
      },
      {
        app: 'Paths by Zapier',
        event: 'Split into paths',
        paths: eventsOf().map((type) => ({ when: `type exactly matches ${type}` })),
      },
    ],
    reverse: { app: 'Webhooks by Zapier', event: 'Custom Request', ...requestExample(label) },
  }
}

/**
 * Make has no code step: its filter compares `webhook-signature` with
 * sha256(…; base64; key) of the raw body, which needs the key as text, so
 * Make endpoints are better verified by a proxy; the blueprint says so.
 */
function make(label: LabelRef) {
  return {
    name: `Leadgate ${label.slug}: verified events`,
    flow: [
      {
        id: 1,
        module: 'gateway:CustomWebHook',
        version: 1,
        parameters: { hook: null, maxResults: 1 },
        metadata: { note: 'Turn on "JSON pass-through" and "Get request headers".' },
      },
      {
        id: 2,
        module: 'util:SetVariable2',
        version: 1,
        mapper: {
          name: 'expected',
          scope: 'roundtrip',
          value:
            '{{sha256(1.`webhook-id` + "." + 1.`webhook-timestamp` + "." + 1.value; "base64"; toBinary(replace(LEADGATE_SECRET; "whsec_"; ""); "base64"))}}',
        },
      },
      {
        id: 3,
        module: 'builtin:BasicRouter',
        version: 1,
        routes: eventsOf().map((type) => ({
          filter: {
            name: type,
            conditions: [[{ a: '{{parseJSON(1.value).type}}', o: 'text:equal', b: type }]],
          },
          flow: [],
        })),
        filter: {
          name: 'signature verified',
          conditions: [
            [{ a: '{{1.`webhook-signature`}}', o: 'text:contain', b: '{{2.expected}}' }],
          ],
        },
      },
    ],
    metadata: {
      leadgate: { label: label.slug, events: eventsOf() },
      reverse: requestExample(label),
    },
  }
}

export function noCodeTemplate(platform: NoCodePlatform, label: LabelRef) {
  const content =
    platform === 'n8n' ? n8n(label) : platform === 'zapier' ? zapier(label) : make(label)
  return { filename: `leadgate-${label.slug}-${platform}.json`, content }
}
