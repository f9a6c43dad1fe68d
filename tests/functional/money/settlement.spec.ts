import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createLabel,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { soldLead, showsAmount } from '#tests/support/money'

test.group('Money / settlement view', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a publisher reads its own settlement; the operator names whose; others are refused', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client, { priceCents: 4000, payoutCents: 3000 })
    const other = await livePublisher()

    const own = await client.get('/v1/settlement').bearerToken(sold.key)
    own.assertStatus(200)
    assert.deepInclude(own.body(), {
      publisher_id: sold.publisher.id,
      currency: 'EUR',
      pending_cents: 3000,
      payable_cents: 0,
      accepted_leads: 1,
    })
    assert.isFalse(showsAmount(own.text(), 4000))

    // Another publisher's settlement is not there to be asked for.
    const foreign = await client
      .get(`/v1/settlement?publisher_id=${sold.publisher.id}`)
      .bearerToken(other.key)
    foreign.assertStatus(404)
    const empty = await client.get('/v1/settlement').bearerToken(other.key)
    assert.deepInclude(empty.body(), { pending_cents: 0, accepted_leads: 0 })

    const operator = await operatorKey()
    const unnamed = await client.get('/v1/settlement').bearerToken(operator)
    unnamed.assertStatus(422)
    const named = await client
      .get(`/v1/settlement?publisher_id=${sold.publisher.id}`)
      .bearerToken(operator)
    assert.equal(named.body().pending_cents, 3000)

    ;(await client.get('/v1/settlement').bearerToken(sold.buyerKey)).assertStatus(403)
    const { secret: buyerKey } = await createKey({ buyerId: (await createBuyer()).id })
    ;(await client.get('/v1/settlement').bearerToken(buyerKey)).assertStatus(403)
  })

  test("a label's settlement rules: defaults until the operator replaces them, logged, validated", async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await operatorKey()
    const shown = await client.get(`/v1/labels/${label.id}/settlement-policy`).bearerToken(operator)
    shown.assertStatus(200)
    assert.deepEqual(shown.body(), {
      payout_schedule: 'monthly',
      minimum_payout_cents: 0,
      response_hours: 72,
      decision_hours: 120,
      default_outcome: 'upheld',
    })

    const policy = {
      payout_schedule: 'weekly',
      minimum_payout_cents: 5000,
      response_hours: 48,
      decision_hours: 96,
      default_outcome: 'rejected',
    }
    const replaced = await client
      .put(`/v1/labels/${label.id}/settlement-policy`)
      .bearerToken(operator)
      .json(policy)
    replaced.assertStatus(200)
    assert.deepEqual(replaced.body(), policy)
    const row = await db.from('settlement_policies').where('label_id', label.id).firstOrFail()
    assert.equal(row.payout_schedule, 'weekly')
    assert.equal(Number(row.minimum_payout_cents), 5000)
    const logged = await AccessLogEntry.query()
      .where('subject_id', label.id)
      .where('action', 'settlement_policy.replaced')
      .firstOrFail()
    assert.match(logged.actor, /^api_key:/)

    const invalid = await client
      .put(`/v1/labels/${label.id}/settlement-policy`)
      .bearerToken(operator)
      .json({ ...policy, response_hours: 0, payout_schedule: 'daily' })
    invalid.assertStatus(422)
    assert.sameMembers(
      invalid.body().errors.map((error: any) => error.field),
      ['response_hours', 'payout_schedule']
    )
    assert.equal(
      (await db.from('settlement_policies').where('label_id', label.id).firstOrFail())
        .response_hours,
      48
    )

    // Labels are the operator's: to a publisher this one does not exist.
    const { key } = await livePublisher()
    ;(await client.get(`/v1/labels/${label.id}/settlement-policy`).bearerToken(key)).assertStatus(
      404
    )
    ;(
      await client
        .get('/v1/labels/00000000-0000-7000-8000-000000000000/settlement-policy')
        .bearerToken(operator)
    ).assertStatus(404)
  })

  test('the operator adjusts what a publisher is owed: a balanced movement with its note; zero and strangers refused', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const operator = await operatorKey()
    const made = await client.post('/v1/ledger/adjustments').bearerToken(operator).json({
      publisher_id: publisher.id,
      amount_cents: 2500,
      currency: 'EUR',
      note: 'Launch bonus',
    })
    made.assertStatus(201)
    const rows = await db.from('ledger_entries').where('movement_id', made.body().movement_id)
    assert.sameDeepMembers(
      rows.map((row) => [row.kind, row.account, Number(row.amount_cents), row.reference]),
      [
        ['adjustment', `publisher:${publisher.id}:payable`, -2500, 'Launch bonus'],
        ['adjustment', 'operator:adjustments', 2500, 'Launch bonus'],
      ]
    )
    const settlement = await client.get('/v1/settlement').bearerToken(key)
    assert.equal(settlement.body().payable_cents, 2500)

    const before = await db.from('ledger_entries').count('* as n').first()
    for (const body of [
      { publisher_id: publisher.id, amount_cents: 0, currency: 'EUR', note: 'nothing' },
      { publisher_id: publisher.id, amount_cents: 10, currency: 'XXY', note: 'bad currency' },
      {
        publisher_id: '00000000-0000-7000-8000-000000000000',
        amount_cents: 10,
        currency: 'EUR',
        note: 'nobody',
      },
    ]) {
      ;(await client.post('/v1/ledger/adjustments').bearerToken(operator).json(body)).assertStatus(
        422
      )
    }
    ;(
      await client.post('/v1/ledger/adjustments').bearerToken(key).json({
        publisher_id: publisher.id,
        amount_cents: 99,
        currency: 'EUR',
        note: 'self-service',
      })
    ).assertStatus(403)
    assert.deepEqual(await db.from('ledger_entries').count('* as n').first(), before)
  })
})
