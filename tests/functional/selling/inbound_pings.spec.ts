import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { leadBody } from '#tests/support/fixtures'
import type { Receiver } from '#tests/support/webhooks'
import {
  createRule,
  disableUnscopedRules,
  factsOf,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import { attemptsOf, salesOf, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import {
  buyerSystemsOf,
  pingPostBuyer,
  pingRule,
} from '#tests/functional/selling/ping_post_support'
import TenancyService from '#services/platform/tenancy_service'

const schemaOf = (publisherId: string) => TenancyService.schemaNameFor(publisherId)

/** What the publisher pings with: no contact but where, and the lead's other fields. */
const PING = {
  contact: { postal_code: '1012 AB', country: 'NL' },
  provenance: { source: 'facebook', campaign: 'winter-2026' },
  attributes: { age: 42 },
}

/** The full lead of that ping, as `leadBody` makes it (its landing page included in both). */
const pingOf = (slug: string, overrides: Record<string, any> = {}) => {
  const lead = leadBody(slug, { attributes: PING.attributes })
  return {
    publisher: slug,
    contact: { postal_code: lead.contact.postal_code, country: lead.contact.country },
    provenance: lead.provenance,
    attributes: PING.attributes,
    ...overrides,
  }
}

const leadCount = async (publisherId: string) =>
  Number((await db.from(`${schemaOf(publisherId)}.leads`).count('* as n'))[0].n)

test.group('Selling / inbound pings', (group) => {
  group.each.setup(() => disableUnscopedRules())
  const start = buyerSystemsOf(group)

  test('a ping gets an offer from a real auction; the lead posted with its ping_id sells at that payout without a second ping', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ tmax_ms: 1500 })
    const [low, high] = [await start({ bid: 900 }), await start({ bid: 1700 })]
    const lowBuyer = await pingPostBuyer(low)
    const highBuyer = await pingPostBuyer(high)
    await pingRule(world, lowBuyer)
    const winning = await pingRule(world, highBuyer)

    const pinged = await client
      .post('/v1/pings')
      .bearerToken(world.key)
      .json(pingOf(world.publisher.slug))
    pinged.assertStatus(200)
    const { ping_id: pingId, offer, expires_at: expiresAt } = pinged.body()
    // 60 % of the best bid, in the rule's currency; never the buyer or the price.
    assert.deepEqual(offer, { payout_cents: 1020, currency: 'EUR' })
    assert.notProperty(pinged.body(), 'price_cents')
    assert.isAbove(new Date(expiresAt).getTime(), Date.now())
    for (const system of [low, high]) {
      const ping = system.received.find((request) => request.url.endsWith('/ping'))!
      assert.deepEqual(ping.json, { postal: '10', country: 'NL', age: 42, source: 'facebook' })
    }
    // The ping keeps bids and a digest, not the fields.
    const stored = await db.from('pings').where('publisher_id', world.publisher.id).firstOrFail()
    assert.equal(stored.payout_cents, 1020)
    assert.equal(stored.price_cents, 1700)
    assert.notInclude(JSON.stringify(stored), '1012')

    const posted = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json({ ...leadBody(world.publisher.slug, { attributes: PING.attributes }), ping_id: pingId })
    posted.assertStatus(201)
    const leadId = posted.body().id
    assert.equal((await factsOf(leadId)).offered_payout_cents, 1020)

    assert.include(await sell(leadId), { outcome: 'matched', buyerId: highBuyer.buyer.id })
    const pings = (system: Receiver) =>
      system.received.filter((request) => request.url.endsWith('/ping')).length
    assert.equal(pings(low), 1)
    assert.equal(pings(high), 1)
    const [sale] = await salesOf(leadId)
    assert.include(sale, { price_cents: 1700, payout_cents: 1020, routing_rule_id: winning.id })
    // The ping's bids are the lead's auction: its transcript names the ping.
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.sameMembers(
      attempts.filter((attempt) => attempt.kind === 'ping').map((attempt) => attempt.auction_id),
      [stored.id, stored.id]
    )
    const auction = await db.from('auctions').where('lead_id', leadId).firstOrFail()
    assert.equal(auction.id, stored.id)
    assert.equal((await db.from('pings').where('id', stored.id).firstOrFail()).lead_id, leadId)

    // A ping sells one lead.
    const again = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json({ ...leadBody(world.publisher.slug, { attributes: PING.attributes }), ping_id: pingId })
    again.assertStatus(409)
    assert.equal(again.body().code, 'ping_used')
  })

  test('a lead whose fields differ from its ping, a forged or foreign ping id, and an expired ping are refused before anything is stored', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    await createRule({ labelIds: [world.label.id], priceCents: 1500, payoutCents: 1000 })
    const pinged = await client
      .post('/v1/pings')
      .bearerToken(world.key)
      .json(pingOf(world.publisher.slug))
    pinged.assertStatus(200)
    // A fixed price is an offer too.
    assert.deepEqual(pinged.body().offer, { payout_cents: 1000, currency: 'EUR' })
    const pingId = pinged.body().ping_id
    const before = await leadCount(world.publisher.id)

    const post = (key: string, body: Record<string, unknown>) =>
      client.post('/v1/leads').bearerToken(key).json(body)
    const differing = await post(world.key, {
      ...leadBody(world.publisher.slug, {
        contact: { postal_code: '9999 ZZ' },
        attributes: PING.attributes,
      }),
      ping_id: pingId,
    })
    differing.assertStatus(409)
    assert.equal(differing.body().code, 'ping_mismatch')
    assert.notInclude(differing.text(), '9999')

    const forged = await post(world.key, {
      ...leadBody(world.publisher.slug, { attributes: PING.attributes }),
      ping_id: `${pingId.slice(0, -4)}AAAA`,
    })
    forged.assertStatus(409)
    assert.equal(forged.body().code, 'ping_mismatch')

    const other = await routingPublisher(world.label)
    const foreign = await post(other.key, {
      ...leadBody(other.publisher.slug, { attributes: PING.attributes }),
      ping_id: pingId,
    })
    foreign.assertStatus(409)
    assert.equal(foreign.body().code, 'ping_mismatch')

    await db
      .from('pings')
      .where('publisher_id', world.publisher.id)
      .update({
        expires_at: new Date(Date.now() - 1000),
      })
    const expired = await post(world.key, {
      ...leadBody(world.publisher.slug, { attributes: PING.attributes }),
      ping_id: pingId,
    })
    expired.assertStatus(410)
    assert.equal(expired.body().code, 'ping_expired')

    assert.equal(await leadCount(world.publisher.id), before)
    assert.equal(await leadCount(other.publisher.id), 0)
    assert.isNull(
      (await db.from('pings').where('publisher_id', world.publisher.id).first()).used_at
    )
  })

  test('a ping with a name, e-mail or phone is refused and pings nobody; no rule means no offer', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const system = await start({ bid: 1000 })
    await pingRule(world, await pingPostBuyer(system))

    const refused = await client
      .post('/v1/pings')
      .bearerToken(world.key)
      .json(pingOf(world.publisher.slug, { contact: { email: 'eva@example.nl', country: 'NL' } }))
    refused.assertStatus(422)
    assert.equal(refused.body().code, 'contact_not_allowed')
    assert.deepEqual(
      refused.body().errors.map((error: { field: string }) => error.field),
      ['contact.email']
    )
    assert.notInclude(refused.text(), 'eva@example.nl')
    assert.lengthOf(system.received, 0)
    assert.lengthOf(await db.from('pings').where('publisher_id', world.publisher.id), 0)

    const lonely = await sellingWorld()
    const none = await client
      .post('/v1/pings')
      .bearerToken(lonely.key)
      .json(pingOf(lonely.publisher.slug))
    none.assertStatus(200)
    assert.isNull(none.body().offer)
  })
})
