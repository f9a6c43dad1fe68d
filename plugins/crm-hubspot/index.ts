import {
  PluginFailure,
  mapFields,
  type LeadgatePlugin,
  type PluginContext,
} from '#plugins/contract'

/** CRM API v3 (the legacy-stable path; the dated 2026-03 path takes the same body). */
const UPSERT_PATH = '/crm/v3/objects/contacts/batch/upsert'

type HubspotSettings = {
  access_token: string
  api_base: string
  field_mapping: Record<string, string>
}

function settingsOf(context: PluginContext) {
  return context.settings as HubspotSettings
}

function headersOf(settings: HubspotSettings) {
  return { authorization: `Bearer ${settings.access_token}` }
}

/** Seconds until the next UTC midnight: HubSpot's daily count starts again then (or earlier). */
function secondsToNextDay(now = new Date()) {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  return Math.ceil((tomorrow - now.getTime()) / 1000)
}

/**
 * How long HubSpot's 429 asks to wait. A Retry-After, when sent, is honoured
 * as it is (by the delivery job). Otherwise the limit hit is named in the body
 * (`policyName`) or shown by the X-HubSpot-RateLimit-* headers: the daily
 * limit (`DAILY`, or `…-Daily-Remaining: 0`) waits until the next day, the
 * per-second one (`SECONDLY`) a second, the rolling window (`TEN_SECONDLY_ROLLING`)
 * its `…-Interval-Milliseconds` (10 s when absent). The delivery job caps any
 * wait at its own maximum and keeps retrying on its schedule.
 */
export function hubspotRetryAfter(failure: PluginFailure, now = new Date()): string | null {
  if (failure.details.status !== 429) return null
  if (failure.details.retryAfter) return failure.details.retryAfter
  let policy = ''
  try {
    policy = String(JSON.parse(failure.details.excerpt ?? '{}').policyName ?? '')
  } catch {}
  const headers = failure.details.rateLimitHeaders ?? {}
  if (policy === 'DAILY' || headers['x-hubspot-ratelimit-daily-remaining'] === '0')
    return String(secondsToNextDay(now))
  if (policy === 'SECONDLY' || headers['x-hubspot-ratelimit-secondly-remaining'] === '0') return '1'
  const windowMs = Number(headers['x-hubspot-ratelimit-interval-milliseconds'])
  return String(Number.isFinite(windowMs) && windowMs > 0 ? Math.ceil(windowMs / 1000) : 10)
}

/** A 429 goes on with the wait HubSpot asks for; any other failure as it is. */
function withHubspotRetry(error: unknown): never {
  if (!(error instanceof PluginFailure) || error.details.status !== 429) throw error
  if (error.details.retryAfter) throw error
  throw new PluginFailure('HubSpot rate limit reached', {
    ...error.details,
    retryAfter: hubspotRetryAfter(error),
  })
}

const plugin: LeadgatePlugin = {
  manifest: {
    name: 'crm-hubspot',
    version: '1.0.0',
    kind: 'crm',
    description:
      'Upserts each lead as a HubSpot contact, keyed by e-mail (CRM API v3 batch upsert, private app token).',
    events: ['lead.received', 'lead.reviewed', 'match.found'],
    defaultEvents: ['lead.received'],
    settings: {
      access_token: {
        type: 'string',
        label: 'Private app access token',
        description:
          'A private app (or service key) token with the crm.objects.contacts.write scope.',
        required: true,
        secret: true,
      },
      api_base: {
        type: 'string',
        label: 'API base URL',
        format: 'url',
        default: 'https://api.hubapi.com',
      },
      field_mapping: {
        type: 'mapping',
        label: 'Field mapping',
        description: 'HubSpot contact property → lead field. `email` is the upsert key.',
        default: {
          email: 'contact.email',
          firstname: 'contact.name',
          phone: 'contact.phone',
          zip: 'contact.postal_code',
          country: 'contact.country',
        },
      },
    },
  },

  /**
   * An upsert by e-mail is idempotent in HubSpot itself: a retry or a replay
   * updates the contact it made the first time, never a second one.
   */
  async handle(event, context) {
    const leadId = String(event.data.lead_id ?? '')
    const lead = leadId ? await context.lead(leadId) : null
    if (!lead) return
    const settings = settingsOf(context)
    const properties = mapFields(lead, settings.field_mapping)
    const email = properties.email
    if (!email) return
    const answer = await context.http
      .json(`${settings.api_base}${UPSERT_PATH}`, {
        headers: headersOf(settings),
        body: { inputs: [{ idProperty: 'email', id: email, properties }] },
      })
      .catch(withHubspotRetry)
    const contact = answer?.results?.[0]
    if (!contact?.id) throw new PluginFailure('HubSpot answered without a contact id')
    await context.recordSync(leadId, String(contact.id), { object: 'contact', event: event.type })
  },

  async testConnection(context) {
    const settings = settingsOf(context)
    await context.http.json(`${settings.api_base}/crm/v3/objects/contacts?limit=1`, {
      headers: headersOf(settings),
    })
    return { ok: true, detail: 'HubSpot accepted the token.' }
  },
}

export default plugin
