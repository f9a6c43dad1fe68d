import type { LeadgatePlugin } from '#plugins/contract'

/**
 * CallRail's inbound side: no outbound events, only the company's webhook
 * signing key, which `POST /v1/calls/callrail` checks against CallRail's
 * `Signature` header (app/services/calls/callrail_signature.ts). Kept as a
 * plugin so the key is set per label and environment, encrypted, never
 * returned, like every other plugin secret (docs/calls.md).
 */
const plugin: LeadgatePlugin = {
  manifest: {
    name: 'calls-callrail',
    version: '1.0.0',
    kind: 'call_tracking',
    description:
      "Checks the Signature of CallRail's post-call webhooks (HMAC-SHA1 of the raw body with the company's signing key) before a call is recorded.",
    events: [],
    settings: {
      signing_key: {
        type: 'string',
        label: 'Webhook signing key',
        description:
          "The company's webhook signing key (CallRail → Integrations → Webhooks). Once set, /v1/calls/callrail refuses a request whose Signature does not verify.",
        required: true,
        secret: true,
      },
    },
    routes: [
      {
        method: 'POST',
        path: '/v1/calls/callrail',
        description: "CallRail's post-call webhook, verified with the signing key.",
      },
    ],
  },
  // It subscribes to no event, so no delivery ever reaches it.
  async handle() {},
}

export default plugin
