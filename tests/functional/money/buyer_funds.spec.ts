import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createBuyer, createKey, operatorKey } from '#tests/support/fixtures'
import { Receiver } from '#tests/support/webhooks'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  eventually,
  factsOf,
} from '#tests/functional/routing/routing_support'
import { createDestination, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import { mailTo } from '#tests/support/mailbox'
import { alertLowFunds } from '#services/money/funds_alerts'

const fundsOf = async (buyerId: string) => {
  const row = await db.from('buyer_funds').where('buyer_id', buyerId).firstOrFail()
  return {
    balance: Number(row.balance_cents),
    reserved: Number(row.reserved_cents),
    limit: Number(row.credit_limit_cents),
  }
}

test.group('Money / buyer funds', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the operator sets a billing mode and records top-ups; the buyer reads its own funds and changes nothing', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const buyer = await createBuyer()
    const other = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret

    const unset = await client.get(`/v1/buyers/${buyer.id}/funds`).bearerToken(operator)
    unset.assertStatus(200)
    assert.deepEqual(unset.body(), {
      mode: null,
      currency: null,
      balance_cents: 0,
      credit_limit_cents: 0,
      reserved_cents: 0,
      available_cents: null,
    })
    const noBilling = await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 1000, reference: 'T-0' })
    noBilling.assertStatus(422)
    assert.equal(noBilling.body().errors[0].code, 'no_billing')

    const refused = await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(buyerKey)
      .json({ billing: { mode: 'credit', credit_limit_cents: 9_000_000, currency: 'EUR' } })
    assert.oneOf(refused.status(), [403, 404])
    assert.lengthOf(await db.from('buyer_funds').where('buyer_id', buyer.id), 0)

    const set = await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(operator)
      .json({ billing: { mode: 'prepaid', currency: 'eur' } })
    set.assertStatus(200)
    const prepaidWithCredit = await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(operator)
      .json({ billing: { mode: 'prepaid', credit_limit_cents: 500, currency: 'EUR' } })
    prepaidWithCredit.assertStatus(422)

    const topUp = await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 4500, reference: 'TRF-1' })
    topUp.assertStatus(201)
    assert.include(topUp.body(), { amount_cents: 4500, currency: 'EUR', reference: 'TRF-1' })
    assert.include(topUp.body().funds, { balance_cents: 4500, available_cents: 4500 })

    const twice = await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 4500, reference: 'TRF-1' })
    twice.assertStatus(409)
    assert.equal(twice.body().code, 'top_up_recorded')
    const wrongCurrency = await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 100, reference: 'TRF-2', currency: 'USD' })
    wrongCurrency.assertStatus(422)
    assert.equal(wrongCurrency.body().errors[0].code, 'currency_mismatch')
    const byBuyer = await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(buyerKey)
      .json({ amount_cents: 100, reference: 'TRF-3' })
    byBuyer.assertStatus(403)
    assert.deepEqual(await fundsOf(buyer.id), { balance: 4500, reserved: 0, limit: 0 })

    const own = await client.get(`/v1/buyers/${buyer.id}/funds`).bearerToken(buyerKey)
    own.assertStatus(200)
    assert.deepEqual(own.body(), {
      mode: 'prepaid',
      currency: 'EUR',
      balance_cents: 4500,
      credit_limit_cents: 0,
      reserved_cents: 0,
      available_cents: 4500,
    })
    ;(await client.get(`/v1/buyers/${other.id}/funds`).bearerToken(buyerKey)).assertStatus(404)
  })

  test('parallel leads against an exact balance: the buyer is sold exactly what it can pay for, the rest is insufficient_funds', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    await db.table('buyer_funds').insert({
      buyer_id: buyer.id,
      currency: 'EUR',
      mode: 'prepaid',
      balance_cents: 4500,
      updated_at: new Date(),
    })
    await createRule({ buyerId: buyer.id, labelIds: [world.label.id], priceCents: 1500 })
    const leads = await Promise.all(Array.from({ length: 8 }, () => acceptedLead(client, world)))
    const outcomes = await Promise.all(leads.map((leadId) => sell(leadId)))

    assert.equal(outcomes.filter((outcome) => outcome.outcome === 'matched').length, 3)
    const sales = await db.from('sales').where('buyer_id', buyer.id)
    assert.lengthOf(sales, 3)
    assert.deepEqual(await fundsOf(buyer.id), { balance: 0, reserved: 0, limit: 0 })
    const unsold = await Promise.all(
      leads.filter((id) => !sales.some((sale) => sale.lead_id === id)).map(factsOf)
    )
    assert.deepEqual(
      unsold.map((fact) => fact.unsold_reason),
      Array(5).fill('insufficient_funds')
    )
  })

  test('a post holds the price while the buyer is asked: captured on acceptance, released on rejection; a credit buyer goes below zero to its limit', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const verdicts = ['rejected', 'ok']
    const buyer = await createBuyer()
    // Slow enough to see the hold while the buyer's system thinks.
    const system = await Receiver.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ result: verdicts.shift() }),
      delayMs: 400,
    }))
    const holdSeen = (cents: number) =>
      eventually(async () => (await fundsOf(buyer.id)).reserved === cents, 5000)
    try {
      await db.table('buyer_funds').insert({
        buyer_id: buyer.id,
        currency: 'EUR',
        mode: 'credit',
        balance_cents: 0,
        credit_limit_cents: 2000,
        updated_at: new Date(),
      })
      const destination = await createDestination(buyer.id, 'http', {
        http: {
          method: 'POST',
          url: `${system.url}/post`,
          content_type: 'json',
          template: '{"email": "{{ contact.email }}"}',
          timeout_ms: 2000,
          response: {
            accepted: { path: '$.result', equals: 'ok' },
            rejected: { path: '$.result', equals: 'rejected' },
          },
        },
      })
      await createRule({
        buyerId: buyer.id,
        labelIds: [world.label.id],
        destinationId: destination.id,
        priceCents: 1200,
      })

      const first = await acceptedLead(client, world)
      const firstSale = sell(first)
      await holdSeen(1200)
      assert.include(await firstSale, { outcome: 'unsold' })
      assert.deepEqual(await fundsOf(buyer.id), { balance: 0, reserved: 0, limit: 2000 })
      const second = await acceptedLead(client, world)
      const secondSale = sell(second)
      await holdSeen(1200)
      assert.include(await secondSale, { outcome: 'matched' })
      assert.deepEqual(await fundsOf(buyer.id), { balance: -1200, reserved: 0, limit: 2000 })
      // 800 left of the limit: a 1200 lead is not offered, the buyer's system hears nothing.
      const third = await acceptedLead(client, world)
      assert.include(await sell(third), { outcome: 'unsold' })
      assert.equal((await factsOf(third)).unsold_reason, 'insufficient_funds')
      assert.lengthOf(system.received, 2)
    } finally {
      await system.close()
    }
  })

  test('at 80 % and at 100 % of its funds a buyer hears buyer.funds_low once each, by event and e-mail; a top-up starts again', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const world = await sellingWorld()
    const buyer = await createBuyer()
    await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(operator)
      .json({ billing: { mode: 'prepaid', currency: 'EUR' } })
    await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 1000, reference: 'TRF-A' })
    await createRule({ buyerId: buyer.id, labelIds: [world.label.id], priceCents: 400 })
    const alerts = async () =>
      (
        await db
          .from('outbox_events')
          .where('type', 'buyer.funds_low')
          .where('buyer_id', buyer.id)
          .orderBy('created_at')
      ).map((event) => event.payload.data)

    await sell(await acceptedLead(client, world))
    assert.equal(await alertLowFunds(), 0)
    await sell(await acceptedLead(client, world))
    await alertLowFunds()
    await alertLowFunds()
    assert.deepEqual(await alerts(), [
      {
        buyer_id: buyer.id,
        currency: 'EUR',
        mode: 'prepaid',
        threshold_percent: 80,
        balance_cents: 200,
        credit_limit_cents: 0,
        reserved_cents: 0,
        available_cents: 200,
      },
    ])
    // 200 left cannot buy a 400 lead: the balance stays, and the funds are not "used up".
    await sell(await acceptedLead(client, world))
    assert.lengthOf(await alerts(), 1)
    await eventually(async () => mailTo(buyer.contactEmail).length === 1, 5000)
    assert.match(mailTo(buyer.contactEmail)[0].parts.text, /80 %/)

    await client
      .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
      .bearerToken(operator)
      .json({ amount_cents: 200, reference: 'TRF-B' })
    await sell(await acceptedLead(client, world))
    await alertLowFunds()
    assert.deepEqual(
      (await alerts()).map((alert) => [alert.threshold_percent, alert.available_cents]),
      [
        [80, 200],
        [100, 0],
      ]
    )
  })
})
