import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import Destination from '#models/destination'
import {
  createBuyer,
  createKey,
  createPublisher,
  leadBody,
  operatorKey,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'
import { Receiver } from '#tests/support/webhooks'
import { createRule, disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { attemptsOf, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import TenancyService from '#services/platform/tenancy_service'

const TEMPLATE =
  '{"email": "{{ contact.email }}", "first": "{{ contact.name | first_name }}", "phone": "{{ contact.phone | e164 }}"}'

/** A buyer's system: accepts with an id, or rejects a lead whose e-mail it knows. */
async function buyersSystem() {
  return Receiver.start((request) => {
    const known = String(request.json?.email ?? '').startsWith('known')
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        known
          ? { result: 'rejected', reason: 'Already a customer' }
          : { result: 'success', lead_id: `B-${request.json?.first}` }
      ),
    }
  })
}

function httpBody(url: string, token = 'buyers-own-token') {
  return {
    name: 'Our CRM',
    kind: 'http',
    http: {
      method: 'POST',
      url,
      content_type: 'json',
      template: TEMPLATE,
      auth: { type: 'bearer', token },
      timeout_ms: 3000,
      response: {
        accepted: { status: [200], path: '$.result', equals: 'success' },
        rejected: { path: '$.result', equals: 'rejected' },
        reason_path: '$.reason',
        buyer_lead_id_path: '$.lead_id',
      },
    },
  }
}

test.group('Selling / destinations over the API', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the operator adds an http destination: its signing secret once, its secrets never', async ({
    client,
    assert,
    cleanup,
  }) => {
    const system = await buyersSystem()
    cleanup(() => system.close())
    const buyer = await createBuyer()
    const key = await operatorKey()

    const created = await client
      .post(`/v1/buyers/${buyer.id}/destinations`)
      .bearerToken(key)
      .json(httpBody(system.url))
    created.assertStatus(201)
    const body = created.body()
    assert.match(body.signing_secret, /^whsec_/)
    assert.include(body, { buyer_id: buyer.id, kind: 'http', status: 'enabled', name: 'Our CRM' })
    assert.deepEqual(body.http.auth, { type: 'bearer', token_set: true })
    assert.notInclude(created.text(), 'buyers-own-token')
    const stored = await Destination.findOrFail(body.id)
    assert.notInclude(stored.secrets ?? '', 'buyers-own-token')
    assert.notInclude(JSON.stringify(stored.config), 'buyers-own-token')

    const shown = await client
      .get(`/v1/buyers/${buyer.id}/destinations/${body.id}`)
      .bearerToken(key)
    shown.assertStatus(200)
    assert.notProperty(shown.body(), 'signing_secret')
    assert.notInclude(shown.text(), 'buyers-own-token')
    const listed = await client.get(`/v1/buyers/${buyer.id}/destinations`).bearerToken(key)
    assert.deepEqual(
      listed.body().data.map((row: { id: string }) => row.id),
      [body.id]
    )
  })

  test('a rule selling to it posts the lead into the buyer’s system, signed; a rejection falls through', async ({
    client,
    assert,
    cleanup,
  }) => {
    const system = await buyersSystem()
    cleanup(() => system.close())
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const key = await operatorKey()
    const created = (
      await client
        .post(`/v1/buyers/${buyer.id}/destinations`)
        .bearerToken(key)
        .json(httpBody(system.url))
    ).body()
    const rule = await client
      .post('/v1/routing-rules')
      .bearerToken(key)
      .json({
        buyer_id: buyer.id,
        labels: [world.label.slug],
        price_cents: 3000,
        payout_cents: 2000,
        currency: 'EUR',
        destination_id: created.id,
        priority: 9,
      })
    rule.assertStatus(201)
    assert.equal(rule.body().destination_id, created.id)
    const fallback = await createRule({ labelIds: [world.label.id] })

    const lead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { name: 'Maria Jansen' } }))
    const sold = await sell(lead.body().id)
    assert.include(sold, { outcome: 'matched', buyerId: buyer.id })
    const [request] = system.received
    assert.equal(request.headers.authorization, 'Bearer buyers-own-token')
    assert.equal(request.json.first, 'Maria')
    // The buyer verifies the request with its signing secret, as a webhook receiver would.
    new Webhook(created.signing_secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    })
    const schema = TenancyService.schemaNameFor(world.publisher.id)
    const [attempt] = await attemptsOf(schema, lead.body().id)
    assert.include(attempt, { outcome: 'accepted', buyer_lead_id: 'B-Maria', http_status: 200 })
    assert.equal(attempt.request.headers.authorization, 'Bearer ••••')

    const refused = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { email: 'known.customer@example.nl' } }))
    assert.include(await sell(refused.body().id), {
      outcome: 'matched',
      buyerId: fallback.buyerId,
    })
    const [rejected] = await attemptsOf(schema, refused.body().id)
    assert.include(rejected, { outcome: 'rejected', reason: 'Already a customer' })
  })

  test('the test button sends the sample lead for real and shows how the rules read the answer', async ({
    client,
    assert,
    cleanup,
  }) => {
    const system = await buyersSystem()
    cleanup(() => system.close())
    const buyer = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret
    const created = await client
      .post(`/v1/buyers/${buyer.id}/destinations`)
      .bearerToken(buyerKey)
      .json(httpBody(system.url))
    created.assertStatus(201)
    const id = created.body().id

    const tested = await client
      .post(`/v1/buyers/${buyer.id}/destinations/${id}/test`)
      .bearerToken(buyerKey)
      .json({})
    tested.assertStatus(200)
    assert.include(tested.body(), { outcome: 'accepted', buyer_lead_id: 'B-Jane' })
    assert.equal(tested.body().request.method, 'POST')
    assert.equal(tested.body().request.headers.authorization, 'Bearer ••••')
    assert.equal(tested.body().response.status, 200)
    assert.lengthOf(system.received, 1)

    const withLead = await client
      .post(`/v1/buyers/${buyer.id}/destinations/${id}/test`)
      .bearerToken(buyerKey)
      .json({ lead: { contact: { email: 'known@example.com' } } })
    assert.include(withLead.body(), { outcome: 'rejected', reason: 'Already a customer' })
    // Nothing was sold: a test is not a sale.
    assert.lengthOf(await db.from('sales').where('buyer_id', buyer.id), 0)
  })

  test('bad settings are refused by field and store nothing', async ({ client, assert }) => {
    const buyer = await createBuyer()
    const key = await operatorKey()
    const before = await databaseState(['destinations', 'access_log'])
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          ...httpBody('http://127.0.0.1:9/'),
          http: { ...httpBody('http://127.0.0.1:9/').http, template: '{"a": "{{ contact.email "}' },
        },
        'http.template',
      ],
      [
        {
          ...httpBody('http://127.0.0.1:9/'),
          http: {
            ...httpBody('http://127.0.0.1:9/').http,
            response: { accepted: { path: '$[?(@.a' } },
          },
        },
        'http.response.accepted.path',
      ],
      [httpBody('http://169.254.169.254/latest/meta-data'), 'http.url'],
      [{ name: 'Mail', kind: 'email', email: { to: 'not-an-address' } }, 'email.to'],
      [{ name: 'CRM', kind: 'crm', crm: { plugin: 'crm-nowhere', settings: {} } }, 'crm.plugin'],
      [
        {
          name: 'Both',
          kind: 'email',
          email: { to: 'a@b.example' },
          http: httpBody('http://x.example').http,
        },
        'http',
      ],
    ]
    for (const [body, field] of cases) {
      const response = await client
        .post(`/v1/buyers/${buyer.id}/destinations`)
        .bearerToken(key)
        .json(body)
      response.assertStatus(422)
      assert.include(
        response.body().errors.map((error: { field: string }) => error.field),
        field,
        `${field}: ${response.text()}`
      )
    }
    assert.deepEqual(await databaseState(['destinations', 'access_log']), before)
  })

  test('another buyer’s destination answers 404, a publisher 403, and neither changes it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const system = await buyersSystem()
    cleanup(() => system.close())
    const owner = await createBuyer()
    const other = await createBuyer()
    const ownerKey = (await createKey({ buyerId: owner.id })).secret
    const otherKey = (await createKey({ buyerId: other.id })).secret
    const publisherKey = (await createKey({ publisherId: (await createPublisher()).id })).secret
    const created = (
      await client
        .post(`/v1/buyers/${owner.id}/destinations`)
        .bearerToken(ownerKey)
        .json(httpBody(system.url))
    ).body()
    const path = `/v1/buyers/${owner.id}/destinations/${created.id}`
    const before = await databaseState(
      ['destinations'],
      [{ table: 'destinations', id: created.id }]
    )

    ;(await client.get(path).bearerToken(otherKey)).assertStatus(404)
    ;(await client.patch(path).bearerToken(otherKey).json({ name: 'Mine now' })).assertStatus(404)
    ;(await client.delete(path).bearerToken(otherKey)).assertStatus(404)
    ;(await client.post(`${path}/test`).bearerToken(otherKey).json({})).assertStatus(404)
    ;(await client.get(`/v1/buyers/${owner.id}/destinations`).bearerToken(otherKey)).assertStatus(
      404
    )
    ;(
      await client
        .post(`/v1/buyers/${owner.id}/destinations`)
        .bearerToken(otherKey)
        .json(httpBody(system.url))
    ).assertStatus(404)
    ;(await client.get(path).bearerToken(publisherKey)).assertStatus(403)
    ;(await client.patch(path).bearerToken(publisherKey).json({ name: 'x' })).assertStatus(403)
    assert.deepEqual(
      await databaseState(['destinations'], [{ table: 'destinations', id: created.id }]),
      before
    )
    assert.lengthOf(system.received, 0)
  })

  test('an update keeps a secret left out, refuses another kind’s settings, and a destination in use stays', async ({
    client,
    assert,
    cleanup,
  }) => {
    const system = await buyersSystem()
    cleanup(() => system.close())
    const buyer = await createBuyer()
    const key = await operatorKey()
    const created = (
      await client
        .post(`/v1/buyers/${buyer.id}/destinations`)
        .bearerToken(key)
        .json(httpBody(system.url))
    ).body()
    const path = `/v1/buyers/${buyer.id}/destinations/${created.id}`
    // The auth type stays and its token is left out: the stored one keeps signing in.
    const withoutToken = { type: 'bearer' }
    const patched = await client
      .patch(path)
      .bearerToken(key)
      .json({ http: { ...httpBody(system.url).http, auth: withoutToken, timeout_ms: 4000 } })
    patched.assertStatus(200)
    assert.equal(patched.body().http.timeout_ms, 4000)
    const tested = await client.post(`${path}/test`).bearerToken(key).json({})
    assert.equal(tested.body().outcome, 'accepted')
    assert.equal(system.received[0].headers.authorization, 'Bearer buyers-own-token')

    const wrongKind = await client
      .patch(path)
      .bearerToken(key)
      .json({ email: { to: 'a@b.example' } })
    wrongKind.assertStatus(422)
    assert.equal(wrongKind.body().errors[0].field, 'email')

    await createRule({ buyerId: buyer.id, destinationId: created.id, enabled: false })
    const removal = await client.delete(path).bearerToken(key)
    removal.assertStatus(409)
    assert.equal(removal.body().code, 'destination_in_use')
    assert.exists(await Destination.find(created.id))
  })
})
