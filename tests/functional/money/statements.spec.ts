import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import AcceptanceService from '#services/money/acceptance_service'
import { createBuyer, createKey, livePublisher, operatorKey } from '#tests/support/fixtures'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import {
  acceptedLead,
  disableUnscopedRules,
  route,
} from '#tests/functional/routing/routing_support'
import { dateWindows, returnByHand, soldLead, showsAmount } from '#tests/support/money'

/** Three sales of 25.00 to one buyer (18.00 to the publisher): one returned in its window, one after. */
async function statementWorld(client: ApiClient) {
  const sold = await soldLead(client, { priceCents: 2500, payoutCents: 1800, windowHours: 48 })
  const leads = [sold.leadId]
  for (let i = 0; i < 2; i++) {
    const leadId = await acceptedLead(client, sold)
    if ((await route(leadId)).outcome !== 'matched') throw new Error('not sold')
    leads.push(leadId)
  }
  const [kept, returnedPending, returnedFinal] = leads as [string, string, string]
  await returnLead(returnedPending, 'pending')
  // The window of the third closes, then it is returned all the same (an operator's decision).
  await dateWindows([returnedFinal], new Date(Date.now() - 1000))
  await (await app.container.make(AcceptanceService)).closeWindows(new Date(), 500)
  await returnLead(returnedFinal, 'payable')
  return { ...sold, kept, returnedPending, returnedFinal, operator: await operatorKey() }
}

function returnLead(leadId: string, from: 'pending' | 'payable') {
  return returnByHand(leadId, from)
}

test.group('Money / buyer statements', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('accepted minus returned for the period, from the buyer’s side of the ledger', async ({
    client,
    assert,
  }) => {
    const w = await statementWorld(client)
    const answer = await client.get(`/v1/buyers/${w.buyer.id}/statement`).bearerToken(w.buyerKey)
    answer.assertStatus(200)
    const checker = schemaChecker((await client.get('/v1/openapi.json')).body())
    const check = checker.compile(pointerTo('components', 'schemas', 'BuyerStatement'))
    assert.isTrue(check(answer.body()), JSON.stringify(check.errors))
    assert.deepInclude(answer.body(), {
      buyer_id: w.buyer.id,
      currency: 'EUR',
      accepted: { count: 3, amount_cents: 7500 },
      returned: { count: 2, amount_cents: 5000 },
      net_cents: 2500,
    })
    assert.sameDeepMembers(
      answer.body().lines.map((line: any) => [line.lead_id, line.kind, line.amount_cents]),
      [
        [w.kept, 'accepted', 2500],
        [w.returnedPending, 'accepted', 2500],
        [w.returnedFinal, 'accepted', 2500],
        [w.returnedPending, 'returned', -2500],
        [w.returnedFinal, 'returned', -2500],
      ]
    )
    // Neither the publisher nor what it earns is the buyer's to see.
    assert.notInclude(answer.text(), w.publisher.id)
    assert.notInclude(answer.text(), w.publisher.slug)
    assert.isFalse(showsAmount(answer.text(), 1800))
    assert.notInclude(answer.text(), 'payout')

    // The period bounds it: nothing was booked before today began.
    const earlier = await client
      .get(`/v1/buyers/${w.buyer.id}/statement?from=2020-01-01&to=2020-02-01`)
      .bearerToken(w.buyerKey)
    assert.deepInclude(earlier.body(), {
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-02-01T00:00:00.000Z',
      accepted: { count: 0, amount_cents: 0 },
      net_cents: 0,
      lines: [],
    })
    for (const query of ['from=2026-02-01&to=2026-01-01', 'from=yesterday', 'format=pdf', 'x=1']) {
      ;(
        await client.get(`/v1/buyers/${w.buyer.id}/statement?${query}`).bearerToken(w.buyerKey)
      ).assertStatus(422)
    }
  })

  test('as CSV, by Accept or ?format=csv, one line per movement', async ({ client, assert }) => {
    const w = await statementWorld(client)
    const byAccept = await client
      .get(`/v1/buyers/${w.buyer.id}/statement`)
      .header('Accept', 'text/csv')
      .bearerToken(w.buyerKey)
    byAccept.assertStatus(200)
    assert.include(byAccept.header('content-type'), 'text/csv')
    assert.match(byAccept.header('content-disposition') ?? '', /^attachment; filename="statement-/)
    const rows = byAccept.text().trim().split('\n')
    assert.equal(rows[0], 'booked_at,lead_id,kind,amount_cents,currency')
    assert.lengthOf(rows, 6)
    assert.isTrue(rows.some((row) => row.endsWith(`,${w.returnedFinal},returned,-2500,EUR`)))
    assert.isTrue(rows.some((row) => row.endsWith(`,${w.kept},accepted,2500,EUR`)))
    assert.notInclude(byAccept.text(), w.publisher.id)

    const byQuery = await client
      .get(`/v1/buyers/${w.buyer.id}/statement?format=csv`)
      .bearerToken(w.operator)
    byQuery.assertStatus(200)
    assert.equal(byQuery.text(), byAccept.text())
  })

  test('the buyer itself and the operator; another buyer’s answers 404, a publisher is refused', async ({
    client,
    assert,
  }) => {
    const w = await statementWorld(client)
    const path = `/v1/buyers/${w.buyer.id}/statement`
    ;(await client.get(path).bearerToken(w.operator)).assertStatus(200)

    const other = await createBuyer()
    const { secret: otherKey } = await createKey({ buyerId: other.id, permissions: ['read'] })
    const foreign = await client.get(path).bearerToken(otherKey)
    foreign.assertStatus(404)
    assert.notInclude(foreign.text(), w.kept)
    const own = await client.get(`/v1/buyers/${other.id}/statement`).bearerToken(otherKey)
    assert.deepInclude(own.body(), { net_cents: 0, lines: [] })

    ;(await client.get(path).bearerToken(w.key)).assertStatus(403)
    const { key: anotherPublisher } = await livePublisher()
    ;(await client.get(path).bearerToken(anotherPublisher)).assertStatus(403)
    ;(
      await client
        .get('/v1/buyers/00000000-0000-7000-8000-000000000000/statement')
        .bearerToken(w.operator)
    ).assertStatus(404)
    // The buyer's sandbox key reads the sandbox's money: none of these live sales.
    const { secret: sandbox } = await createKey({ buyerId: w.buyer.id, environment: 'sandbox' })
    assert.deepInclude((await client.get(path).bearerToken(sandbox)).body(), {
      net_cents: 0,
      lines: [],
    })
    const { secret: submitOnly } = await createKey({
      buyerId: w.buyer.id,
      permissions: ['submit'],
    })
    ;(await client.get(path).bearerToken(submitOnly)).assertStatus(403)
  })
})
