import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { leadBody, operatorKey } from '#tests/support/fixtures'
import { compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import {
  VendorServer,
  type VendorRequest,
  installPlugin,
  labelledPublisher,
} from '#tests/support/plugins'

const TOKEN = 'pipedrive-token-0123456789abcdef'

/**
 * Pipedrive as documented: `x-api-token`, persons v2 (search by e-mail with
 * exact match, create with `emails`), leads v1 (create with `person_id`,
 * search by title), `{success, data}` bodies, 401 for a wrong token, and a
 * burst-limit 429 with `x-ratelimit-reset`.
 */
async function fakePipedrive(options: { searchMs?: number } = {}) {
  const persons: { id: number; name: string; emails: { value: string }[] }[] = []
  const leads: { id: string; title: string; person_id: number }[] = []
  let throttled = false
  const server = await VendorServer.start(async (request: VendorRequest) => {
    if (request.headers['x-api-token'] !== TOKEN)
      return { status: 401, body: { success: false, error: 'unauthorized access' } }
    const url = new URL(request.path, 'http://pipedrive')
    const term = url.searchParams.get('term') ?? ''
    if (request.method === 'GET' && url.pathname === '/api/v2/persons/search') {
      const items = persons
        .filter((person) => person.emails.some((email) => email.value === term))
        .map((item) => ({ result_score: 1, item }))
      // What the search read, answered late: a person made meanwhile is not in it.
      if (options.searchMs) await new Promise((resolve) => setTimeout(resolve, options.searchMs))
      return { status: 200, body: { success: true, data: { items } } }
    }
    if (request.method === 'POST' && url.pathname === '/api/v2/persons') {
      const person = {
        id: persons.length + 1,
        name: request.json.name,
        emails: request.json.emails,
      }
      persons.push(person)
      return { status: 200, body: { success: true, data: person } }
    }
    if (request.method === 'GET' && url.pathname === '/v1/leads/search') {
      const items = leads.filter((lead) => lead.title.includes(term)).map((item) => ({ item }))
      return { status: 200, body: { success: true, data: { items } } }
    }
    if (request.method === 'POST' && url.pathname === '/v1/leads') {
      if (!throttled) {
        throttled = true
        return {
          status: 429,
          headers: {
            'x-ratelimit-limit': '80',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': '1',
          },
          body: { success: false, error: 'Too many requests' },
        }
      }
      const lead = {
        id: randomUUID(),
        title: request.json.title,
        person_id: request.json.person_id,
      }
      leads.push(lead)
      return { status: 201, body: { success: true, data: lead } }
    }
    if (request.method === 'GET' && url.pathname === '/v1/users/me')
      return { status: 200, body: { success: true, data: { id: 1 } } }
    return { status: 404, body: { success: false } }
  })
  return Object.assign(server, { persons, leads })
}

/** A label's publisher with the plugin installed for `lead.received`, a fake Pipedrive and a delivery worker. */
async function pipedriveInstalled(
  client: any,
  cleanup: (handler: () => Promise<void>) => void,
  options?: Parameters<typeof fakePipedrive>[0]
) {
  const pipedrive = await fakePipedrive(options)
  const operator = await operatorKey()
  const world = await labelledPublisher()
  const runtime = await startRuntime()
  cleanup(async () => {
    await runtime.stop()
    await pipedrive.close()
    await WebhookEndpoint.query().where('label_id', world.label.id).delete()
  })
  await installPlugin(
    client,
    operator,
    world.label.id,
    'crm-pipedrive',
    { api_token: TOKEN, api_base: pipedrive.base },
    ['lead.received']
  )
  return { pipedrive, operator, world }
}

test.group('Plugins / crm-pipedrive', (group) => {
  group.each.setup(() => compressWebhookClock())

  test('one person per e-mail, one lead per Leadgate lead, through a 429 and a replay', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { pipedrive, operator, world } = await pipedriveInstalled(client, cleanup)

    const email = 'piet.devries@example.nl'
    const ids: string[] = []
    for (let i = 0; i < 2; i++) {
      const response = await client
        .post('/v1/leads')
        .bearerToken(world.key)
        .json(leadBody(world.publisher.slug, { contact: { email, phone: `+3161234567${i}` } }))
      response.assertStatus(201)
      ids.push(response.body().id)
    }
    const syncs = await eventually(async () => {
      const rows = await db.from('plugin_lead_syncs').whereIn('lead_id', ids)
      return rows.length === 2 && rows
    }, 'both leads synced')
    assert.lengthOf(pipedrive.persons, 1)
    assert.lengthOf(pipedrive.leads, 2)
    assert.sameMembers(
      syncs.map((row) => row.external_id),
      pipedrive.leads.map((lead) => lead.id)
    )
    assert.sameMembers(
      pipedrive.leads.map((lead) => lead.title),
      ids.map((id) => `Leadgate ${id}`)
    )
    assert.isTrue(pipedrive.requests.some((r) => r.path === '/v1/leads' && r.json?.person_id === 1))

    const event = await db
      .from('outbox_events')
      .where('lead_id', ids[0])
      .where('type', 'lead.received')
      .first()
    // The installation's own delivery: other endpoints of the shared database may hold the event too.
    const installation = await WebhookEndpoint.query()
      .where('label_id', world.label.id)
      .where('plugin', 'crm-pipedrive')
      .firstOrFail()
    const deliveryOf = () =>
      db
        .from('webhook_deliveries')
        .where('event_id', event.id)
        .where('endpoint_id', installation.id)
        .firstOrFail()
    const before = await deliveryOf()
    ;(await client.post(`/v1/events/${event.id}/replay`).bearerToken(operator)).assertStatus(202)
    await eventually(async () => {
      const delivery = await deliveryOf()
      return delivery.status === 'succeeded' && delivery.attempt_count > before.attempt_count
    }, 'the replay delivered')
    assert.lengthOf(pipedrive.persons, 1)
    assert.lengthOf(pipedrive.leads, 2)
  }).timeout(60_000)

  test('two leads of one e-mail delivered at once make one person, not two', async ({
    client,
    assert,
    cleanup,
  }) => {
    // A slow search keeps both deliveries between their search and their create at once.
    const { pipedrive, world } = await pipedriveInstalled(client, cleanup, { searchMs: 400 })
    const answers = await Promise.all(
      ['+31612345670', '+31612345671'].map((phone) =>
        client
          .post('/v1/leads')
          .bearerToken(world.key)
          .json(leadBody(world.publisher.slug, { contact: { email: 'twice@example.nl', phone } }))
      )
    )
    const ids = answers.map((answer) => {
      answer.assertStatus(201)
      return answer.body().id as string
    })
    const syncs = await eventually(async () => {
      const rows = await db.from('plugin_lead_syncs').whereIn('lead_id', ids)
      return rows.length === 2 && rows
    }, 'both leads synced')
    assert.lengthOf(pipedrive.persons, 1)
    assert.deepEqual(
      syncs.map((row) => row.details.person_id),
      [1, 1]
    )
    assert.lengthOf(
      pipedrive.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/persons'),
      1
    )
  }).timeout(60_000)
})
