import { generateKeyPairSync } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { importSPKI, jwtVerify } from 'jose'
import WebhookEndpoint from '#models/webhook_endpoint'
import { leadBody, operatorKey } from '#tests/support/fixtures'
import { compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import {
  VendorServer,
  type VendorRequest,
  installPlugin,
  labelledPublisher,
} from '#tests/support/plugins'

const CLIENT_ID = '3MVG9-consumer-key'
const USERNAME = 'integration@leadgate.example'
const UPSERT = '/services/data/v61.0/composite/sobjects/Lead/Leadgate_Lead_Id__c'

/**
 * Salesforce as documented: the JWT bearer grant at /services/oauth2/token
 * (an RS256 assertion checked against the connected app's certificate, iss,
 * sub, aud and exp), then the composite sObject collections upsert by an
 * external id (PATCH, at most 200 records, one result per record), the
 * duplicate-rule header, and 401 INVALID_SESSION_ID for an expired session.
 */
async function fakeSalesforce() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const verifyKey = await importSPKI(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    'RS256'
  )
  const leads = new Map<string, { id: string; fields: Record<string, unknown> }>()
  const tokens = new Set<string>()
  let expireFirstSession = true
  const server: VendorServer = await VendorServer.start(async (request: VendorRequest) => {
    if (request.method === 'POST' && request.path === '/services/oauth2/token') {
      const form = new URLSearchParams(String(request.json))
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return { status: 400, body: { error: 'unsupported_grant_type' } }
      try {
        await jwtVerify(form.get('assertion') ?? '', verifyKey, {
          issuer: CLIENT_ID,
          subject: USERNAME,
          audience: server.base,
          requiredClaims: ['exp'],
        })
      } catch {
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'invalid assertion' },
        }
      }
      const token = `00D-session-${tokens.size + 1}`
      tokens.add(token)
      return {
        status: 200,
        body: {
          access_token: token,
          instance_url: server.base,
          token_type: 'Bearer',
          scope: 'api',
        },
      }
    }
    const token = String(request.headers.authorization ?? '').replace('Bearer ', '')
    if (!tokens.has(token) || (expireFirstSession && token === '00D-session-1')) {
      expireFirstSession = false
      return {
        status: 401,
        body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }],
      }
    }
    if (request.method === 'GET' && request.path.endsWith('/limits'))
      return { status: 200, body: {} }
    if (request.method !== 'PATCH' || request.path !== UPSERT) return { status: 404, body: [] }
    if (!String(request.headers['sforce-duplicate-rule-header']).includes('allowSave=false'))
      return { status: 400, body: [{ errorCode: 'MISSING_HEADER' }] }
    const records = request.json.records as any[]
    if (records.length > 200) return { status: 400, body: [{ errorCode: 'EXCEEDED_ID_LIMIT' }] }
    const results = records.map((record) => {
      const key = record.Leadgate_Lead_Id__c
      const known = leads.get(key)
      const lead = known ?? { id: `00Q${String(leads.size + 1).padStart(12, '0')}`, fields: {} }
      Object.assign(lead.fields, record)
      leads.set(key, lead)
      return { id: lead.id, success: true, errors: [], created: !known }
    })
    return { status: 200, body: results }
  })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  return Object.assign(server, { leads, pem })
}

test.group('Plugins / crm-salesforce', (group) => {
  group.each.setup(() => compressWebhookClock())

  test('a lead is upserted by its Leadgate id after the JWT bearer flow; an expired session is renewed; a replay updates', async ({
    client,
    assert,
    cleanup,
  }) => {
    const salesforce = await fakeSalesforce()
    const operator = await operatorKey()
    const world = await labelledPublisher()
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await salesforce.close()
      await WebhookEndpoint.query().where('label_id', world.label.id).delete()
    })
    await installPlugin(client, operator, world.label.id, 'crm-salesforce', {
      client_id: CLIENT_ID,
      username: USERNAME,
      private_key: salesforce.pem,
      login_url: salesforce.base,
    })
    const connection = await client
      .post(`/v1/labels/${world.label.id}/plugins/crm-salesforce/test`)
      .bearerToken(operator)
    assert.isTrue(connection.body().ok, connection.text())

    const submitted = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { email: 'sanne@example.nl' } }))
    const leadId = submitted.body().id
    const sync = await eventually(
      () => db.from('plugin_lead_syncs').where('lead_id', leadId).first(),
      'the Lead id written back'
    )
    assert.equal(sync.external_id, '00Q000000000001')
    const lead = salesforce.leads.get(leadId)!
    assert.containsSubset(lead.fields, {
      attributes: { type: 'Lead' },
      Email: 'sanne@example.nl',
      LastName: 'Jan Jansen',
      Company: world.publisher.slug,
      LeadSource: 'facebook',
      Leadgate_Lead_Id__c: leadId,
    })

    const event = await db
      .from('outbox_events')
      .where('lead_id', leadId)
      .where('type', 'lead.received')
      .first()
    const upserts = () => salesforce.requests.filter((r) => r.path === UPSERT).length
    const sent = upserts()
    ;(await client.post(`/v1/events/${event.id}/replay`).bearerToken(operator)).assertStatus(202)
    await eventually(() => upserts() > sent, 'the replay sent')
    assert.equal(salesforce.leads.size, 1)
  }).timeout(60_000)
})
