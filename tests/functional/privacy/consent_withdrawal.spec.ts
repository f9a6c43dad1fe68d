import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { createKey, livePublisher } from '#tests/support/fixtures'
import { soldLead } from '#tests/support/money'
import {
  acceptedLead,
  createRule,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

async function subscribe(client: any, key: string, events: string[]) {
  const created = await client
    .post('/v1/webhook-endpoints')
    .bearerToken(key)
    .json({ url: 'http://127.0.0.1:9/hooks', events })
  created.assertStatus(201)
  return created.body().id as string
}

test.group('Privacy / consent withdrawal', (group) => {
  let endpoints: string[] = []
  group.each.teardown(async () => {
    await WebhookEndpoint.query().whereIn('id', endpoints).delete()
    endpoints = []
  })

  test('records consent.revoked in the trail and tells the publisher and the buyer holding the lead', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client)
    const { secret: buyerKey } = await createKey({ buyerId: sold.buyer.id })
    endpoints.push(await subscribe(client, buyerKey, ['consent.revoked']))
    endpoints.push(await subscribe(client, sold.key, ['consent.revoked']))

    const withdrawn = await client
      .post(`/v1/leads/${sold.leadId}/consent/withdraw`)
      .bearerToken(sold.key)
      .json({})
    withdrawn.assertStatus(200)
    assert.equal(withdrawn.body().status, 'matched')
    assert.isString(withdrawn.body().consent.revoked_at)

    const trail = await client
      .get('/v1/audit-logs')
      .qs({ lead_id: sold.leadId, format: 'json' })
      .bearerToken(sold.key)
    const last = trail.body().events.at(-1)
    assert.equal(last.event, 'consent.revoked')
    assert.equal(last.status_from, last.status_to)

    const event = await db
      .from('outbox_events')
      .where({ lead_id: sold.leadId, type: 'consent.revoked' })
      .firstOrFail()
    assert.deepEqual(Object.keys(event.payload.data).sort(), ['lead_id', 'publisher', 'revoked_at'])
    const deliveries = await db.from('webhook_deliveries').where('event_id', event.id)
    assert.sameMembers(
      deliveries.map((delivery) => delivery.endpoint_id),
      endpoints
    )

    const lead = await client.get(`/v1/leads/${sold.leadId}`).bearerToken(sold.key)
    assert.equal(lead.body().status, 'matched')

    const again = await client
      .post(`/v1/leads/${sold.leadId}/consent/withdraw`)
      .bearerToken(sold.key)
      .json({})
    again.assertStatus(409)
    assert.equal(again.body().code, 'consent_already_revoked')
  })

  test('a lead whose consent was withdrawn is not routed', async ({ client, assert }) => {
    const world = await routingPublisher()
    await createRule({ publisherIds: [world.publisher.id] })
    const leadId = await acceptedLead(client, world)
    const operator = (await createKey()).secret
    const withdrawn = await client
      .post(`/v1/leads/${leadId}/consent/withdraw`)
      .bearerToken(operator)
      .json({})
    withdrawn.assertStatus(200)
    const outcome = await route(leadId)
    assert.notEqual(outcome.outcome, 'matched')
    assert.isNull((await factsOf(leadId)).buyer_id)
  })

  test('the buyer, another publisher and a read-only key are refused; nothing changes', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client)
    const other = await livePublisher()
    const { secret: readOnly } = await createKey({
      publisherId: sold.publisher.id,
      permissions: ['read'],
    })
    const url = `/v1/leads/${sold.leadId}/consent/withdraw`
    assert.equal((await client.post(url).bearerToken(sold.buyerKey).json({})).status(), 403)
    assert.equal((await client.post(url).bearerToken(other.key).json({})).status(), 404)
    assert.equal((await client.post(url).bearerToken(readOnly).json({})).status(), 403)
    const bad = await client.post(url).bearerToken(sold.key).json({ reason: 'words' })
    assert.equal(bad.status(), 422)
    const events = await db.from('outbox_events').where({
      lead_id: sold.leadId,
      type: 'consent.revoked',
    })
    assert.lengthOf(events, 0)
  })
})
