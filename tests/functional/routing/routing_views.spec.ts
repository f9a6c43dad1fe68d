import { test } from '@japa/runner'
import { createBuyer, createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import { showsAmount } from '#tests/support/money'

/** A label, a publisher under it, buyer A with a rule for adults, buyer B, one sold and one unsold lead. */
async function market(client: Parameters<typeof acceptedLead>[0]) {
  const label = await createLabel()
  const world = await routingPublisher(label)
  const [buyerA, buyerB] = [await createBuyer(), await createBuyer()]
  const rule = await createRule({
    buyerId: buyerA.id,
    publisherIds: [world.publisher.id],
    criteria: [{ field: 'attributes.age', op: 'gte', value: 18 }],
    priceCents: 3200,
    payoutCents: 2100,
    currency: 'EUR',
  })
  const sold = await acceptedLead(client, world, { attributes: { age: 44 } })
  const unsold = await acceptedLead(client, world, { attributes: { age: 16 } })
  await route(sold)
  await route(unsold)
  const keyA = (await createKey({ buyerId: buyerA.id, permissions: ['read'] })).secret
  const keyB = (await createKey({ buyerId: buyerB.id, permissions: ['read'] })).secret
  return { label, world, buyerA, buyerB, rule, sold, unsold, keyA, keyB }
}

test.group('Routing / buyer view', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a buyer reads a lead sold to it: contact, provenance, consent, validation, its price; no publisher, no payout', async ({
    client,
    assert,
  }) => {
    const { label, world, sold, keyA } = await market(client)
    const response = await client.get(`/v1/leads/${sold}`).bearerToken(keyA)
    response.assertStatus(200)
    const lead = response.body()
    assert.equal(lead.id, sold)
    assert.equal(lead.status, 'matched')
    assert.isNull(lead.publisher)
    assert.equal(lead.contact.name, 'Jan Jansen')
    assert.match(lead.contact.email, /@example\.nl$/)
    assert.match(lead.contact.phone, /^\+316/)
    assert.deepEqual(lead.provenance, {
      source: 'facebook',
      campaign: 'winter-2026',
      landing_page: 'https://energy.example/offer',
      label: label.slug,
    })
    assert.equal(lead.consent.given, true)
    assert.equal(
      lead.consent.text,
      'I agree that Demo Energy may contact me about my energy contract.'
    )
    assert.equal(lead.consent.ip, '203.0.113.9')
    assert.isString(lead.consent.timestamp)
    assert.deepEqual(lead.quality_check, {
      consent: 'valid',
      target_audience: 'within',
      duplicate: false,
    })
    assert.deepEqual(lead.reasons, [])
    assert.equal(lead.price_cents, 3200)
    assert.equal(lead.currency, 'EUR')
    for (const hidden of ['payout_cents', 'routing', 'unsold_reason', 'buyer_id'])
      assert.notProperty(lead, hidden)
    assert.notInclude(response.text(), world.publisher.slug)
    assert.notInclude(response.text(), world.publisher.id)
    assert.isFalse(showsAmount(response.text(), 2100))
  })

  test('a buyer lists only its own leads and gets 404 on anyone else’s', async ({
    client,
    assert,
  }) => {
    const { sold, unsold, keyA, keyB } = await market(client)
    const other = await market(client)

    const listA = await client.get('/v1/leads').bearerToken(keyA)
    listA.assertStatus(200)
    assert.deepEqual(
      listA.body().data.map((lead: any) => lead.id),
      [sold]
    )
    assert.isNull(listA.body().data[0].publisher)
    assert.notProperty(listA.body().data[0], 'payout_cents')

    // Unsold, another buyer's, another market's: all answered as if they did not exist.
    ;(await client.get(`/v1/leads/${unsold}`).bearerToken(keyA)).assertStatus(404)
    ;(await client.get(`/v1/leads/${other.sold}`).bearerToken(keyA)).assertStatus(404)
    ;(await client.get(`/v1/leads/${sold}`).bearerToken(keyB)).assertStatus(404)
    ;(await client.get(`/v1/requests/${sold}`).bearerToken(keyB)).assertStatus(404)
    assert.deepEqual((await client.get('/v1/leads').bearerToken(keyB)).body().data, [])
    assert.deepEqual(
      (await client.get('/v1/leads').qs({ unsold: true }).bearerToken(keyA)).body().data,
      []
    )

    // The buyer may look up the status of its lead.
    const lookup = await client.get(`/v1/requests/${sold}`).bearerToken(keyA)
    assert.deepEqual(lookup.body(), { id: sold, status: 'matched' })

    // Filtering by buyer is the operator's: a buyer or publisher is refused.
    const byBuyer = await client
      .get('/v1/leads')
      .qs({ buyer_id: other.buyerA.id })
      .bearerToken(keyA)
    byBuyer.assertStatus(403)
    assert.equal(byBuyer.body().code, 'filter_not_allowed')
  })
})

test.group('Routing / publisher and operator views', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a publisher sees its payout, never the price or the buyer', async ({ client, assert }) => {
    const { world, sold, unsold, buyerA } = await market(client)
    const response = await client.get(`/v1/leads/${sold}`).bearerToken(world.key)
    response.assertStatus(200)
    assert.equal(response.body().status, 'matched')
    assert.equal(response.body().publisher, world.publisher.slug)
    assert.equal(response.body().payout_cents, 2100)
    assert.equal(response.body().currency, 'EUR')
    for (const hidden of ['price_cents', 'buyer_id', 'routing', 'unsold_reason'])
      assert.notProperty(response.body(), hidden)
    assert.notInclude(response.text(), buyerA.id)
    assert.isFalse(showsAmount(response.text(), 3200))

    const unsoldView = await client.get(`/v1/leads/${unsold}`).bearerToken(world.key)
    assert.isNull(unsoldView.body().payout_cents)
    const filtered = await client
      .get('/v1/leads')
      .qs({ buyer_id: buyerA.id })
      .bearerToken(world.key)
    filtered.assertStatus(403)
  })

  test('the operator sees who bought each lead at what price and payout, and why the rest is unsold', async ({
    client,
    assert,
  }) => {
    const { world, sold, unsold, buyerA, rule } = await market(client)
    const key = await operatorKey()

    const soldView = (await client.get(`/v1/leads/${sold}`).bearerToken(key)).body()
    assert.include(soldView, {
      buyer_id: buyerA.id,
      price_cents: 3200,
      payout_cents: 2100,
      currency: 'EUR',
      unsold_reason: null,
    })
    assert.equal(soldView.publisher, world.publisher.slug)
    assert.deepEqual(Object.keys(soldView.routing).sort(), [
      'buyer_id',
      'currency',
      'matched_at',
      'payout_cents',
      'price_cents',
      'rule_id',
    ])
    assert.include(soldView.routing, {
      buyer_id: buyerA.id,
      rule_id: rule.id,
      price_cents: 3200,
      payout_cents: 2100,
      currency: 'EUR',
    })
    assert.isString(soldView.routing.matched_at)

    const unsoldView = (await client.get(`/v1/leads/${unsold}`).bearerToken(key)).body()
    assert.include(unsoldView, {
      status: 'accepted',
      buyer_id: null,
      price_cents: null,
      unsold_reason: 'criteria',
    })
    assert.equal(unsoldView.routing.unsold_reason, 'criteria')
    assert.isString(unsoldView.routing.routed_at)

    const unsoldList = await client
      .get('/v1/leads')
      .qs({ status: 'accepted', unsold: true, publisher: world.publisher.slug })
      .bearerToken(key)
    unsoldList.assertStatus(200)
    assert.deepEqual(
      unsoldList.body().data.map((lead: any) => [lead.id, lead.unsold_reason]),
      [[unsold, 'criteria']]
    )

    const soldList = await client
      .get('/v1/leads')
      .qs({ unsold: false, publisher: world.publisher.slug })
      .bearerToken(key)
    assert.deepEqual(
      soldList.body().data.map((lead: any) => lead.id),
      [sold]
    )
    const byBuyer = await client.get('/v1/leads').qs({ buyer_id: buyerA.id }).bearerToken(key)
    assert.deepEqual(
      byBuyer.body().data.map((lead: any) => lead.id),
      [sold]
    )

    // A lead not routed yet has no routing block.
    const fresh = await acceptedLead(client, world, { attributes: { age: 30 } })
    assert.isNull((await client.get(`/v1/leads/${fresh}`).bearerToken(key)).body().routing)
  })

  test('bad routing filters are refused with 422', async ({ client }) => {
    const key = await operatorKey()
    ;(await client.get('/v1/leads').qs({ unsold: 'maybe' }).bearerToken(key)).assertStatus(422)
    ;(await client.get('/v1/leads').qs({ buyer_id: 'not-a-uuid' }).bearerToken(key)).assertStatus(
      422
    )
  })
})
