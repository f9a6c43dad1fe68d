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

/**
 * n8n's "Prepare signed content" Code node. It computes no MAC: n8n's Crypto
 * node does (action hmac). The Crypto node's secret is a text field, while a
 * Standard Webhooks key is the base64-decoded bytes after `whsec_` (not text),
 * so this node hands them over as a list of bytes, which the Crypto node's
 * secret expression turns into a `Uint8Array` (an allowed expression global)
 * for the HMAC. It reads the raw body the Webhook node kept (binary `data`).
 */
export const N8N_PREPARE_CODE = `const item = $input.first()
const raw = (await this.helpers.getBinaryDataBuffer(0, 'data')).toString('utf8')
const headers = item.json.headers || {}
const id = String(headers['webhook-id'] || '')
const timestamp = Number(headers['webhook-timestamp'])
const secret = String($env.LEADGATE_WEBHOOK_SECRET || '').replace(/^whsec_/, '')
return [
  {
    json: {
      signed_content: id + '.' + headers['webhook-timestamp'] + '.' + raw,
      key_bytes: Array.from(Buffer.from(secret, 'base64')),
      signatures: String(headers['webhook-signature'] || '')
        .split(' ')
        .map((entry) => entry.split(',')[1] || ''),
      fresh: id !== '' && secret !== '' && Number.isFinite(timestamp) && Math.abs(Date.now() / 1000 - timestamp) <= 300,
      raw_body: raw,
    },
  },
]`

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
      consent: { text: '{{consent text}}', timestamp: '{{consent time}}' },
    },
  }
}

/**
 * Webhook (raw body) → Code node preparing the signed content and key bytes →
 * Crypto node (hmac, SHA256, base64) → IF the result is among the `v1`
 * signatures and the timestamp is fresh → the event (Set) → Switch per event
 * type; otherwise Stop and Error. Parameter names are the nodes' own
 * (n8n-nodes-base.crypto v1: action, type, value, dataPropertyName, secret, encoding).
 */
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
        name: 'Prepare signed content',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [220, 0],
        parameters: { mode: 'runOnceForAllItems', jsCode: N8N_PREPARE_CODE },
      },
      {
        name: 'HMAC-SHA256',
        type: 'n8n-nodes-base.crypto',
        typeVersion: 1,
        position: [440, 0],
        parameters: {
          action: 'hmac',
          type: 'SHA256',
          binaryData: false,
          value: '={{ $json.signed_content }}',
          dataPropertyName: 'expected',
          secret: '={{ new Uint8Array($json.key_bytes) }}',
          encoding: 'base64',
        },
      },
      {
        name: 'Signature verified?',
        type: 'n8n-nodes-base.if',
        typeVersion: 2,
        position: [660, 0],
        parameters: {
          conditions: {
            options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
            conditions: [
              {
                id: 'signature',
                leftValue: '={{ $json.signatures }}',
                rightValue: '={{ $json.expected }}',
                operator: { type: 'array', operation: 'contains', rightType: 'any' },
              },
              {
                id: 'fresh',
                leftValue: '={{ $json.fresh }}',
                rightValue: '',
                operator: { type: 'boolean', operation: 'true', singleValue: true },
              },
            ],
            combinator: 'and',
          },
          options: {},
        },
      },
      {
        name: 'Refuse delivery',
        type: 'n8n-nodes-base.stopAndError',
        typeVersion: 1,
        position: [880, 160],
        parameters: { errorMessage: 'Leadgate signature did not verify: delivery refused' },
      },
      {
        // Only the event goes on: the key bytes stay out of the later nodes and their logs.
        name: 'Delivered event',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [880, 0],
        parameters: { mode: 'raw', jsonOutput: '={{ $json.raw_body }}', options: {} },
      },
      {
        name: 'By event type',
        type: 'n8n-nodes-base.switch',
        typeVersion: 3,
        position: [1100, 0],
        parameters: {
          rules: {
            values: events.map((type) => ({
              outputKey: type,
              conditions: {
                options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
                conditions: [
                  {
                    leftValue: '={{ $json.type }}',
                    rightValue: type,
                    operator: { type: 'string', operation: 'equals' },
                  },
                ],
                combinator: 'and',
              },
              renameOutput: true,
            })),
          },
          options: {},
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
      'Leadgate webhook': { main: [[{ node: 'Prepare signed content', type: 'main', index: 0 }]] },
      'Prepare signed content': { main: [[{ node: 'HMAC-SHA256', type: 'main', index: 0 }]] },
      'HMAC-SHA256': { main: [[{ node: 'Signature verified?', type: 'main', index: 0 }]] },
      'Signature verified?': {
        main: [
          [{ node: 'Delivered event', type: 'main', index: 0 }],
          [{ node: 'Refuse delivery', type: 'main', index: 0 }],
        ],
      },
      'Delivered event': { main: [[{ node: 'By event type', type: 'main', index: 0 }]] },
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

/** A request header from Make's custom webhook ("Get request headers": name/value pairs). */
const makeHeader = (name: string) => `get(map(1.__IMTHEADERS__; "value"; "name"; "${name}"); 1)`

/**
 * Make's formulas, no code step: the signed content is mapped text
 * (`<webhook-id>.<webhook-timestamp>.<raw body>`); Make's `sha256(text;
 * encoding; key; key encoding)` computes the HMAC with the key given as
 * base64 (the part after `whsec_`), so the key's bytes are used as they are.
 * The router's filter wants `v1,<expected>` among the signatures and a
 * timestamp within five minutes.
 */
export const MAKE_SIGNED_CONTENT = `{{${makeHeader('webhook-id')}}}.{{${makeHeader('webhook-timestamp')}}}.{{1.value}}`
export const MAKE_EXPECTED =
  '{{sha256(3.signed_content; "base64"; replace(2.secret; "whsec_"; ""); "base64")}}'

function make(label: LabelRef) {
  const timestamp = `{{${makeHeader('webhook-timestamp')}}}`
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
        mapper: { name: 'secret', scope: 'roundtrip', value: 'whsec_… (the endpoint secret)' },
        metadata: { note: "Paste the Leadgate endpoint's secret here." },
      },
      {
        id: 3,
        module: 'util:SetVariable2',
        version: 1,
        mapper: { name: 'signed_content', scope: 'roundtrip', value: MAKE_SIGNED_CONTENT },
      },
      {
        id: 4,
        module: 'util:SetVariable2',
        version: 1,
        mapper: { name: 'expected', scope: 'roundtrip', value: MAKE_EXPECTED },
      },
      {
        id: 5,
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
            [
              {
                a: `{{${makeHeader('webhook-signature')}}}`,
                o: 'text:contain',
                b: 'v1,{{4.expected}}',
              },
              { a: timestamp, o: 'number:greater', b: '{{formatDate(now; "X") - 300}}' },
              { a: timestamp, o: 'number:less', b: '{{formatDate(now; "X") + 300}}' },
            ],
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
