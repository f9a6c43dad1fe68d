import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import RoutingRule from '#models/routing_rule'
import { createBuyer, createKey } from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
} from '#tests/functional/routing/routing_support'
import { sell, sellingWorld } from '#tests/functional/selling/selling_support'

test.group('Selling / buyers adjust their own rules', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a buyer reads its own rules without the publisher side, and nobody else’s', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const own = await createRule({ buyerId: buyer.id, priceCents: 2200, payoutCents: 1300 })
    const others = await createRule()
    const key = (await createKey({ buyerId: buyer.id })).secret

    const list = await client.get('/v1/routing-rules').bearerToken(key)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().data.map((rule: { id: string }) => rule.id),
      [own.id]
    )
    const [rule] = list.body().data
    assert.equal(rule.price_cents, 2200)
    for (const hidden of ['payout_cents', 'payout_share_percent', 'publishers']) {
      assert.notProperty(rule, hidden)
    }
    assert.notInclude(list.text(), '1300')
    ;(await client.get(`/v1/routing-rules/${others.id}`).bearerToken(key)).assertStatus(404)
  })

  test('a buyer narrows, caps, schedules and pauses its rule; its leads follow', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const rule = await createRule({ buyerId: buyer.id, labelIds: [world.label.id] })
    const key = (await createKey({ buyerId: buyer.id })).secret

    const narrowed = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({
        buyer_criteria: [{ field: 'attributes.age', op: 'gte', value: 40 }],
        caps: { hourly: 5, daily_spend_cents: 100_000 },
      })
    narrowed.assertStatus(200)
    assert.deepEqual(narrowed.body().buyer_criteria, [
      { field: 'attributes.age', op: 'gte', value: 40 },
    ])
    assert.deepEqual(narrowed.body().caps, { hourly: 5, daily_spend_cents: 100_000 })
    const logged = await db
      .from('access_log')
      .where('action', 'routing_rule.updated')
      .where('subject_id', rule.id)
      .first()
    assert.exists(logged)

    // The buyer's own filter narrows the operator's: a younger lead is not sold to it.
    const young = await acceptedLead(client, world, { attributes: { age: 30 } })
    assert.deepEqual(await sell(young), { outcome: 'unsold', leadId: young, reason: 'criteria' })
    const older = await acceptedLead(client, world, { attributes: { age: 50 } })
    assert.include(await sell(older), { outcome: 'matched', buyerId: buyer.id })

    const paused = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({ status: 'paused' })
    paused.assertStatus(200)
    assert.include(paused.body(), { status: 'paused', enabled: false })
    const later = await acceptedLead(client, world, { attributes: { age: 50 } })
    assert.equal((await sell(later)).outcome, 'unsold')
  })

  test('a buyer changing its price, payout or anything else of the operator’s is refused, nothing stored', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const rule = await createRule({ buyerId: buyer.id })
    const key = (await createKey({ buyerId: buyer.id })).secret
    const before = await databaseState(
      ['routing_rules', 'access_log'],
      [{ table: 'routing_rules', id: rule.id }]
    )
    for (const body of [
      { price_cents: 1 },
      { payout_cents: 1 },
      { caps: { daily: 3 }, priority: 1000 },
      { destination_id: null },
      { exclusive: false },
    ]) {
      const response = await client
        .patch(`/v1/routing-rules/${rule.id}`)
        .bearerToken(key)
        .json(body)
      response.assertStatus(403)
      assert.equal(response.body().code, 'operator_only')
      assert.exists(response.body().field)
    }
    ;(await client.delete(`/v1/routing-rules/${rule.id}`).bearerToken(key)).assertStatus(403)
    assert.deepEqual(
      await databaseState(
        ['routing_rules', 'access_log'],
        [{ table: 'routing_rules', id: rule.id }]
      ),
      before
    )
    assert.equal((await RoutingRule.findOrFail(rule.id)).priceCents, rule.priceCents)
  })
})
