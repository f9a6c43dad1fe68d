import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import canonicalize from 'canonicalize'
import db from '@adonisjs/lucid/services/db'
import { createKey, operatorKey } from '#tests/support/fixtures'
import type { Receiver } from '#tests/support/webhooks'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
} from '#tests/functional/routing/routing_support'
import { attemptsOf, salesOf, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import TenancyService from '#services/platform/tenancy_service'
import {
  buyerSystemsOf,
  pingPostBuyer,
  pingRule,
} from '#tests/functional/selling/ping_post_support'

const schemaOf = (publisherId: string) => TenancyService.schemaNameFor(publisherId)

test.group('Selling / ping-post auctions', (group) => {
  group.each.setup(() => disableUnscopedRules())
  const start = buyerSystemsOf(group)

  test('every ping-post buyer is pinged at once with the partial lead; the best bid is posted and pays its bid', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ tmax_ms: 1500 })
    const [low, high] = [await start({ bid: 900 }), await start({ bid: 1700 })]
    const lowBuyer = await pingPostBuyer(low)
    const highBuyer = await pingPostBuyer(high)
    await pingRule(world, lowBuyer)
    const winning = await pingRule(world, highBuyer)
    const leadId = await acceptedLead(client, world, {
      contact: { name: 'Eva Smit', postal_code: '1012 AB' },
      attributes: { age: 42 },
    })

    assert.deepEqual(await sell(leadId), {
      outcome: 'matched',
      leadId,
      ruleId: winning.id,
      buyerId: highBuyer.buyer.id,
    })
    // No name, e-mail or phone in any ping, nor the full postal code; the age as it is.
    for (const system of [low, high]) {
      const ping = system.received.find((request) => request.url.endsWith('/ping'))!
      assert.deepEqual(ping.json, { postal: '10', country: 'NL', age: 42, source: 'facebook' })
      assert.notMatch(ping.body, /Eva|Smit|@|\+31/)
    }
    const post = high.received.find((request) => request.url.endsWith('/post'))!
    assert.equal(post.json.bid_id, 'bid-1700')
    assert.isUndefined(low.received.find((request) => request.url.endsWith('/post')))

    const [sale] = await salesOf(leadId)
    assert.include(sale, { buyer_id: highBuyer.buyer.id, price_cents: 1700, payout_cents: 1020 })
    assert.equal(sale.buyer_lead_id, 'bid-1700-sold')
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.sameDeepMembers(
      attempts.map((attempt) => [attempt.kind, attempt.outcome, attempt.bid_cents]),
      [
        ['ping', 'bid', 900],
        ['ping', 'bid', 1700],
        ['post', 'accepted', null],
      ]
    )

    // The transcript: append-only, no personal data, its digest in the lead's trail.
    const auction = await db.from('auctions').where('lead_id', leadId).firstOrFail()
    assert.equal(
      auction.digest,
      createHash('sha256').update(canonicalize(auction.transcript)!).digest('hex')
    )
    assert.include(auction.transcript, {
      winner_buyer_id: highBuyer.buyer.id,
      clearing_cents: 1700,
      auction: 'first_price',
      tmax_ms: 1500,
    })
    assert.notMatch(JSON.stringify(auction.transcript), /Eva|Smit|@/)
    const entry = await db
      .from('audit.entries')
      .where('lead_id', leadId)
      .where('event', 'lead.auctioned')
      .firstOrFail()
    assert.equal(entry.actor, `auction:${auction.digest}`)
    await assert.rejects(() =>
      db
        .from('auctions')
        .where('id', auction.id)
        .update({ digest: '0'.repeat(64) })
    )

    const operator = await client.get(`/v1/leads/${leadId}/sale`).bearerToken(await operatorKey())
    assert.include(operator.body().auction, {
      digest: auction.digest,
      winner_buyer_id: highBuyer.buyer.id,
      clearing_cents: 1700,
    })
    assert.lengthOf(operator.body().auction.bids, 2)
    // A losing buyer reads its own bid and that it did not win; never the others', nor the sale.
    const loser = await client
      .get(`/v1/leads/${leadId}/sale`)
      .bearerToken((await createKey({ buyerId: lowBuyer.buyer.id })).secret)
    loser.assertStatus(200)
    assert.deepEqual(loser.body().sales, [])
    assert.deepEqual(
      loser.body().attempts.map((attempt: any) => [attempt.kind, attempt.bid_cents]),
      [['ping', 900]]
    )
    assert.deepEqual(loser.body().auction, {
      id: auction.id,
      bid_cents: 900,
      bid_id: 'bid-900',
      won: false,
    })
    // It bid on a partial lead: the lead itself stays out of its reach.
    ;(
      await client
        .get(`/v1/leads/${leadId}`)
        .bearerToken((await createKey({ buyerId: lowBuyer.buyer.id })).secret)
    ).assertStatus(404)
    const winner = await client
      .get(`/v1/leads/${leadId}/sale`)
      .bearerToken((await createKey({ buyerId: highBuyer.buyer.id })).secret)
    assert.deepEqual(winner.body().auction, {
      id: auction.id,
      bid_cents: 1700,
      bid_id: 'bid-1700',
      won: true,
    })
    const publisher = await client.get(`/v1/leads/${leadId}/sale`).bearerToken(world.key)
    assert.notProperty(publisher.body(), 'auction')
  })

  test('second price: the winner pays the next bid plus a cent', async ({ client, assert }) => {
    const world = await sellingWorld({ auction: 'second_price' })
    const [a, b] = [await start({ bid: 1200 }), await start({ bid: 2000 })]
    await pingRule(world, await pingPostBuyer(a))
    const winner = await pingPostBuyer(b)
    await pingRule(world, winner)
    const leadId = await acceptedLead(client, world)

    assert.include(await sell(leadId), { outcome: 'matched', buyerId: winner.buyer.id })
    const [sale] = await salesOf(leadId)
    assert.equal(sale.price_cents, 1201)
  })

  test('a rejected post goes to the next bid of the same auction, with no second ping', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const refusing = await start({ bid: 2500, accept: false })
    const taking = await start({ bid: 1100 })
    const refusingBuyer = await pingPostBuyer(refusing)
    const takingBuyer = await pingPostBuyer(taking)
    await pingRule(world, refusingBuyer)
    await pingRule(world, takingBuyer)
    const leadId = await acceptedLead(client, world)

    assert.include(await sell(leadId), { outcome: 'matched', buyerId: takingBuyer.buyer.id })
    const pings = (system: Receiver) =>
      system.received.filter((request) => request.url.endsWith('/ping')).length
    assert.equal(pings(refusing), 1)
    assert.equal(pings(taking), 1)
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.deepEqual(
      attempts
        .filter((attempt) => attempt.kind === 'post')
        .map((attempt) => [attempt.buyer_id, attempt.outcome]),
      [
        [refusingBuyer.buyer.id, 'rejected'],
        [takingBuyer.buyer.id, 'accepted'],
      ]
    )
    assert.equal((await salesOf(leadId))[0].price_cents, 1100)
  })

  test('a fixed price is a bid: a higher one takes the lead; bids under the reserve, late or absent take no part', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ tmax_ms: 300 })
    const under = await start({ bid: 400 })
    const late = await start({ bid: 5000, delayMs: 900 })
    const none = await start({ bid: null })
    await pingRule(world, await pingPostBuyer(under), { reserveCents: 500 })
    await pingRule(world, await pingPostBuyer(late))
    await pingRule(world, await pingPostBuyer(none))
    const fixed = await createRule({
      labelIds: [world.label.id],
      priceCents: 800,
      payoutCents: 500,
    })
    const leadId = await acceptedLead(client, world)

    assert.deepEqual(await sell(leadId), {
      outcome: 'matched',
      leadId,
      ruleId: fixed.id,
      buyerId: fixed.buyerId,
    })
    const pings = (await attemptsOf(schemaOf(world.publisher.id), leadId)).filter(
      (attempt) => attempt.kind === 'ping'
    )
    // The late buyer's ping ended at the auction's tmax, not its own timeout.
    assert.sameDeepMembers(
      pings.map((ping) => [ping.outcome, ping.bid_cents, ping.reason === 'timeout']),
      [
        ['bid', 400, false],
        ['no_bid', null, true],
        ['no_bid', null, false],
      ]
    )
    assert.include((await salesOf(leadId))[0], { buyer_id: fixed.buyerId, price_cents: 800 })
    assert.include(await factsOf(leadId), { sale_status: 'sold' })
  })
})
