import { SignJWT, importPKCS8 } from 'jose'
import {
  PluginFailure,
  mapFields,
  type LeadgatePlugin,
  type PluginContext,
  type PluginHttp,
} from '#plugins/contract'

type SalesforceSettings = {
  client_id: string
  username: string
  private_key: string
  login_url: string
  api_version: string
  external_id_field: string
  field_mapping: Record<string, string>
  allow_duplicates: boolean
}

type Session = { accessToken: string; instanceUrl: string; expiresAt: number }

/** The composite sObject collections limit: 200 records per request. */
export const COLLECTION_LIMIT = 200
/** A session is reused for a while; Salesforce's own lifetime is the org's setting. */
const SESSION_MS = 15 * 60_000

const sessions = new Map<string, Session>()

function settingsOf(context: PluginContext) {
  return context.settings as SalesforceSettings
}

/**
 * OAuth 2.0 JWT bearer flow: an RS256 assertion signed with the connected
 * app's certificate key (iss = consumer key, sub = user, aud = login URL,
 * three minutes), exchanged for an access token and the org's instance URL.
 */
async function session(
  settings: SalesforceSettings,
  http: PluginHttp,
  fresh = false
): Promise<Session> {
  const cacheKey = `${settings.login_url}|${settings.client_id}|${settings.username}`
  const known = sessions.get(cacheKey)
  if (known && !fresh && known.expiresAt > Date.now()) return known
  const key = await importPKCS8(settings.private_key, 'RS256')
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(settings.client_id)
    .setSubject(settings.username)
    .setAudience(settings.login_url)
    .setExpirationTime('3m')
    .sign(key)
  const answer = await http.json(`${settings.login_url}/services/oauth2/token`, {
    form: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    }),
  })
  if (!answer?.access_token || !answer?.instance_url)
    throw new PluginFailure('Salesforce answered the token request without a token')
  const opened = {
    accessToken: answer.access_token,
    instanceUrl: answer.instance_url,
    expiresAt: Date.now() + SESSION_MS,
  }
  sessions.set(cacheKey, opened)
  return opened
}

/** Calls with the session; an expired one (401) is renewed once. */
async function withSession(
  settings: SalesforceSettings,
  http: PluginHttp,
  call: (current: Session) => Promise<any>
) {
  try {
    return await call(await session(settings, http))
  } catch (error) {
    if (!(error instanceof PluginFailure) || error.details.status !== 401) throw error
    return call(await session(settings, http, true))
  }
}

/**
 * Upserts Leads by the external id field through the composite sObject
 * collections, in requests of at most 200 records. The duplicate-rule header
 * says whether a matching duplicate rule may block the save.
 */
export async function upsertLeads(
  settings: SalesforceSettings,
  http: PluginHttp,
  records: Record<string, string>[]
): Promise<{ id: string; created: boolean }[]> {
  const results: { id: string; created: boolean }[] = []
  for (let start = 0; start < records.length; start += COLLECTION_LIMIT) {
    const chunk = records.slice(start, start + COLLECTION_LIMIT)
    const answer = await withSession(settings, http, (current) =>
      http.json(
        `${current.instanceUrl}/services/data/${settings.api_version}/composite/sobjects/Lead/${settings.external_id_field}`,
        {
          method: 'PATCH',
          headers: {
            'authorization': `Bearer ${current.accessToken}`,
            'sforce-duplicate-rule-header': `allowSave=${settings.allow_duplicates}, includeRecordDetails=false, runAsCurrentUser=true`,
          },
          body: {
            allOrNone: false,
            records: chunk.map((record) => ({ attributes: { type: 'Lead' }, ...record })),
          },
        }
      )
    )
    for (const result of answer as any[]) {
      if (!result?.success) {
        const first = result?.errors?.[0]
        throw new PluginFailure(
          `Salesforce refused the Lead: ${first?.statusCode ?? 'unknown'} ${first?.message ?? ''}`.trim(),
          { status: 400, excerpt: JSON.stringify(result).slice(0, 2000) }
        )
      }
      results.push({ id: String(result.id), created: Boolean(result.created) })
    }
  }
  return results
}

const plugin: LeadgatePlugin = {
  manifest: {
    name: 'crm-salesforce',
    version: '1.0.0',
    kind: 'crm',
    description:
      'Upserts each lead as a Salesforce Lead by an external id field (JWT bearer flow, composite sObject collections).',
    events: ['lead.received', 'match.found'],
    defaultEvents: ['lead.received'],
    settings: {
      client_id: {
        type: 'string',
        label: 'Connected app consumer key',
        required: true,
      },
      username: {
        type: 'string',
        label: 'Integration user',
        description: 'The Salesforce username the connected app acts as (pre-authorised).',
        required: true,
      },
      private_key: {
        type: 'string',
        label: 'Private key (PKCS #8 PEM)',
        description: 'The key of the certificate uploaded to the connected app.',
        format: 'multiline',
        required: true,
        secret: true,
      },
      login_url: {
        type: 'string',
        label: 'Login URL',
        format: 'url',
        default: 'https://login.salesforce.com',
      },
      api_version: { type: 'string', label: 'API version', default: 'v61.0' },
      external_id_field: {
        type: 'string',
        label: 'External id field',
        description: 'A Lead field marked External ID, holding the Leadgate lead id.',
        default: 'Leadgate_Lead_Id__c',
      },
      field_mapping: {
        type: 'mapping',
        label: 'Field mapping',
        description: 'Lead field → lead path. LastName and Company are required by Salesforce.',
        default: {
          LastName: 'contact.name',
          Email: 'contact.email',
          Phone: 'contact.phone',
          PostalCode: 'contact.postal_code',
          Country: 'contact.country',
          Company: 'publisher',
          LeadSource: 'provenance.source',
        },
      },
      allow_duplicates: {
        type: 'boolean',
        label: 'Save when a duplicate rule matches',
        default: false,
      },
    },
  },

  /** An upsert by the Leadgate id is idempotent: a replay updates the Lead it made. */
  async handle(event, context) {
    const leadId = String(event.data.lead_id ?? '')
    const lead = leadId ? await context.lead(leadId) : null
    if (!lead) return
    const settings = settingsOf(context)
    const record = {
      ...mapFields(lead, settings.field_mapping),
      [settings.external_id_field]: leadId,
    }
    const [result] = await upsertLeads(settings, context.http, [record])
    await context.recordSync(leadId, result.id, { object: 'Lead', created: result.created })
  },

  async testConnection(context) {
    const settings = settingsOf(context)
    await withSession(settings, context.http, (current) =>
      context.http.json(`${current.instanceUrl}/services/data/${settings.api_version}/limits`, {
        headers: { authorization: `Bearer ${current.accessToken}` },
      })
    )
    return { ok: true, detail: 'Salesforce granted a session.' }
  },
}

export default plugin
