import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import AccessLogEntry from '#models/access_log_entry'
import WebhookEndpoint from '#models/webhook_endpoint'
import { openSecret } from '#services/webhooks/secrets'
import { createBuyer, createKey, createPublisher, operatorKey } from '#tests/support/fixtures'

const URL = 'https://crm.example/hooks/leadgate'

async function publisherKey(
  options: { permissions?: ('read' | 'submit')[]; environment?: 'live' | 'sandbox' } = {}
) {
  const publisher = await createPublisher()
  const { secret } = await createKey({ publisherId: publisher.id, ...options })
  return { publisher, key: secret }
}

test.group('Webhooks / endpoints', () => {
  test('a publisher creates an endpoint; the secret is shown once and stored encrypted', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await publisherKey()
    const response = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: URL, events: ['lead.received', 'consent.recorded'], description: 'CRM sync' })

    response.assertStatus(201)
    const body = response.body()
    assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
    assert.containsSubset(body, {
      url: URL,
      events: ['lead.received', 'consent.recorded'],
      status: 'enabled',
      owner: 'publisher',
      publisher_id: publisher.id,
      buyer_id: null,
      environment: 'live',
      description: 'CRM sync',
      fifo: false,
    })

    const stored = await WebhookEndpoint.findOrFail(body.id)
    assert.notInclude(JSON.stringify(stored.$attributes), body.secret)
    assert.equal(openSecret(stored.secret), body.secret)

    const shown = await client.get(`/v1/webhook-endpoints/${body.id}`).bearerToken(key)
    shown.assertStatus(200)
    assert.notProperty(shown.body(), 'secret')
    const list = await client.get('/v1/webhook-endpoints').bearerToken(key)
    assert.deepEqual(
      list.body().data.map((endpoint: any) => endpoint.id),
      [body.id]
    )
    assert.isNull(list.body().next_cursor)

    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', body.id)
        .where('action', 'webhook_endpoint.created')
        .first()
    )
  })

  test("another owner's endpoint answers 404 on every route and nothing changes", async ({
    client,
    assert,
  }) => {
    const mine = await publisherKey()
    const theirs = await publisherKey()
    const buyer = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret
    const created = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(mine.key)
      .json({ url: URL, events: ['lead.received'] })
    const id = created.body().id

    for (const key of [theirs.key, buyerKey]) {
      ;(await client.get(`/v1/webhook-endpoints/${id}`).bearerToken(key)).assertStatus(404)
      ;(
        await client
          .patch(`/v1/webhook-endpoints/${id}`)
          .bearerToken(key)
          .json({ status: 'disabled' })
      ).assertStatus(404)
      ;(await client.delete(`/v1/webhook-endpoints/${id}`).bearerToken(key)).assertStatus(404)
      ;(
        await client.post(`/v1/webhook-endpoints/${id}/rotate-secret`).bearerToken(key)
      ).assertStatus(404)
      ;(await client.get(`/v1/webhook-endpoints/${id}/deliveries`).bearerToken(key)).assertStatus(
        404
      )
      ;(
        await client
          .post(`/v1/webhook-endpoints/${id}/recover`)
          .bearerToken(key)
          .json({ since: new Date().toISOString() })
      ).assertStatus(404)
      assert.deepEqual((await client.get('/v1/webhook-endpoints').bearerToken(key)).body().data, [])
    }
    const stored = await WebhookEndpoint.findOrFail(id)
    assert.equal(stored.status, 'enabled')

    // The operator sees and manages it.
    const operator = await operatorKey()
    ;(await client.get(`/v1/webhook-endpoints/${id}`).bearerToken(operator)).assertStatus(200)
    ;(await client.get(`/v1/webhook-endpoints/${randomUUID()}`).bearerToken(operator)).assertStatus(
      404
    )
  })

  test('owners subscribe only to what they may see; the operator creates endpoints for others', async ({
    client,
    assert,
  }) => {
    const { key } = await publisherKey()
    const refused = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: URL, events: ['lead.received', 'match.found'] })
    refused.assertStatus(422)
    assert.deepEqual(refused.body().errors, [
      {
        field: 'events.1',
        code: 'event_not_allowed',
        message: 'A publisher endpoint cannot subscribe to match.found.',
      },
    ])

    const buyer = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret
    const own = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(buyerKey)
      .json({ url: URL, events: ['match.found'] })
    own.assertStatus(201)
    assert.containsSubset(own.body(), { owner: 'buyer', buyer_id: buyer.id })
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(buyerKey)
        .json({ url: URL, events: ['lead.received'] })
    ).assertStatus(422)
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: URL, events: ['lead.received'], buyer_id: buyer.id })
    ).assertStatus(422)

    const operator = await operatorKey()
    const forBuyer = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(operator)
      .json({ url: URL, events: ['match.found'], buyer_id: buyer.id })
    forBuyer.assertStatus(201)
    assert.equal(forBuyer.body().owner, 'buyer')
    const both = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(operator)
      .json({ url: URL, events: ['match.found'], buyer_id: buyer.id, publisher_id: randomUUID() })
    both.assertStatus(422)
    const unknown = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(operator)
      .json({ url: URL, events: ['lead.received'], publisher_id: randomUUID() })
    assert.equal(unknown.body().errors[0].field, 'publisher_id')
    const all = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(operator)
      .json({ url: URL, events: ['match.found', 'lead.received', 'endpoint.disabled'] })
    all.assertStatus(201)
    assert.equal(all.body().owner, 'operator')
    await WebhookEndpoint.query().whereIn('id', [all.body().id]).delete()
  })

  test('URLs pointing at private, loopback-mapped or metadata addresses are refused when saved', async ({
    client,
    assert,
  }) => {
    const { key } = await publisherKey()
    for (const url of [
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]:8080/hook',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://192.168.1.20/',
    ]) {
      const response = await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url, events: ['lead.received'] })
      response.assertStatus(422)
      assert.equal(response.body().errors[0].code, 'forbidden_address', url)
    }
    for (const url of [
      'ftp://crm.example/hook',
      'not a url',
      'https://user:secret@crm.example/hook',
    ]) {
      ;(
        await client
          .post('/v1/webhook-endpoints')
          .bearerToken(key)
          .json({ url, events: ['lead.received'] })
      ).assertStatus(422)
    }
    const stored = await db
      .from('webhook_endpoints')
      .where('url', 'like', '%10.0.0.5%')
      .count('* as count')
    assert.equal(Number(stored[0].count), 0)
  })

  test('PATCH changes url, events, status and rate; a bad patch changes nothing', async ({
    client,
    assert,
  }) => {
    const { key } = await publisherKey()
    const id = (
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: URL, events: ['lead.received'] })
    ).body().id

    const patched = await client
      .patch(`/v1/webhook-endpoints/${id}`)
      .bearerToken(key)
      .json({
        url: 'https://crm.example/v2',
        events: ['consent.recorded'],
        status: 'disabled',
        rate_limit_per_second: 5,
        fifo: true,
      })
    patched.assertStatus(200)
    assert.containsSubset(patched.body(), {
      url: 'https://crm.example/v2',
      events: ['consent.recorded'],
      status: 'disabled',
      disabled_reason: 'manual',
      rate_limit_per_second: 5,
      fifo: true,
    })

    const enabled = await client
      .patch(`/v1/webhook-endpoints/${id}`)
      .bearerToken(key)
      .json({ status: 'enabled' })
    assert.containsSubset(enabled.body(), { status: 'enabled', disabled_reason: null })

    const bad = await client
      .patch(`/v1/webhook-endpoints/${id}`)
      .bearerToken(key)
      .json({ url: 'http://10.1.1.1/', events: ['consent.recorded'] })
    bad.assertStatus(422)
    ;(
      await client.patch(`/v1/webhook-endpoints/${id}`).bearerToken(key).json({ secret: 'mine' })
    ).assertStatus(422)
    ;(
      await client.patch(`/v1/webhook-endpoints/${id}`).bearerToken(key).json({ status: 'paused' })
    ).assertStatus(422)
    const stored = await WebhookEndpoint.findOrFail(id)
    assert.equal(stored.url, 'https://crm.example/v2')
  })

  test('rotating the secret returns a new one; the old one keeps signing for 24 hours', async ({
    client,
    assert,
  }) => {
    const { key } = await publisherKey()
    const created = (
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: URL, events: ['lead.received'] })
    ).body()
    const rotated = await client
      .post(`/v1/webhook-endpoints/${created.id}/rotate-secret`)
      .bearerToken(key)
    rotated.assertStatus(200)
    assert.notEqual(rotated.body().secret, created.secret)
    const hours = (Date.parse(rotated.body().previous_secret_expires_at) - Date.now()) / 3600_000
    assert.closeTo(hours, 24, 0.01)
    const stored = await WebhookEndpoint.findOrFail(created.id)
    assert.equal(openSecret(stored.secret), rotated.body().secret)
    assert.equal(openSecret(stored.previousSecret!), created.secret)
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', created.id)
        .where('action', 'webhook_endpoint.secret_rotated')
        .first()
    )
  })

  test('DELETE removes the endpoint and its deliveries', async ({ client, assert }) => {
    const { key } = await publisherKey()
    const id = (
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: URL, events: ['lead.received'] })
    ).body().id
    ;(await client.delete(`/v1/webhook-endpoints/${id}`).bearerToken(key)).assertStatus(204)
    assert.isNull(await WebhookEndpoint.find(id))
    ;(await client.get(`/v1/webhook-endpoints/${id}`).bearerToken(key)).assertStatus(404)
    const deliveries = await db
      .from('webhook_deliveries')
      .where('endpoint_id', id)
      .count('* as count')
    assert.equal(Number(deliveries[0].count), 0)
  })

  test('read-only keys read but cannot change; sandbox keys see only sandbox endpoints', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await publisherKey()
    const readOnly = (await createKey({ publisherId: publisher.id, permissions: ['read'] })).secret
    const sandbox = (await createKey({ publisherId: publisher.id, environment: 'sandbox' })).secret
    const live = (
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: URL, events: ['lead.received'] })
    ).body()

    ;(await client.get('/v1/webhook-endpoints').bearerToken(readOnly)).assertStatus(200)
    const denied = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(readOnly)
      .json({ url: URL, events: ['lead.received'] })
    denied.assertStatus(403)
    assert.equal(denied.body().code, 'permission_missing')
    ;(
      await client.post(`/v1/webhook-endpoints/${live.id}/rotate-secret`).bearerToken(readOnly)
    ).assertStatus(403)

    const sandboxEndpoint = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(sandbox)
      .json({ url: URL, events: ['lead.received'] })
    sandboxEndpoint.assertStatus(201)
    assert.equal(sandboxEndpoint.body().environment, 'sandbox')
    assert.deepEqual(
      (await client.get('/v1/webhook-endpoints').bearerToken(sandbox))
        .body()
        .data.map((e: any) => e.id),
      [sandboxEndpoint.body().id]
    )
    ;(await client.get(`/v1/webhook-endpoints/${live.id}`).bearerToken(sandbox)).assertStatus(404)
  })
})
