import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import fc from 'fast-check'
import { uuidv7 } from 'uuidv7'
import { settleOnce } from '#services/money/settlement_clock'
import { account, balancesOf, foldLedger, ledgerInsert, movement } from '#services/money/ledger'
import { insertTogether } from '#services/sql/insert_together'
import { disableUnscopedRules, factsOf } from '#tests/functional/routing/routing_support'
import { ledgerOf, soldLead, showsAmount } from '#tests/support/money'

const HOUR = 3_600_000

test.group('Money / the ledger', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a sale is booked with the match: balanced, pending for the buyer’s return window', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client, { priceCents: 2500, payoutCents: 1800, windowHours: 48 })
    const rows = await ledgerOf(sold.leadId)
    assert.deepEqual(
      rows.map((row) => [row.kind, row.account, Number(row.amount_cents)]),
      [
        ['sale', account.buyerPending(sold.buyer.id), 2500],
        ['sale', account.publisherPending(sold.publisher.id), -1800],
        ['sale', account.marginPending, -700],
      ]
    )
    assert.equal(new Set(rows.map((row) => row.movement_id)).size, 1)
    const fact = await factsOf(sold.leadId)
    assert.equal(fact.settlement, 'pending')
    assert.equal(fact.settles_at.getTime() - fact.matched_at.getTime(), 48 * HOUR)
  })

  test('when the window closes the sale is final: payable, on the trail, and the buyer is told', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client, { windowHours: 1 })
    // Nothing moves before the window closes.
    await settleOnce(new Date())
    assert.equal((await factsOf(sold.leadId)).settlement, 'pending')

    await settleOnce(new Date(Date.now() + 2 * HOUR))
    const fact = await factsOf(sold.leadId)
    assert.equal(fact.settlement, 'payable')
    const rows = await ledgerOf(sold.leadId)
    assert.deepEqual(
      rows
        .filter((row) => row.kind === 'acceptance')
        .map((row) => [row.account, Number(row.amount_cents)]),
      [
        [account.buyerPending(sold.buyer.id), -2500],
        [account.buyerPayable(sold.buyer.id), 2500],
        [account.publisherPending(sold.publisher.id), 1800],
        [account.publisherPayable(sold.publisher.id), -1800],
        [account.marginPending, 700],
        [account.marginEarned, -700],
      ]
    )
    const entry = await db
      .from('audit.entries')
      .where('lead_id', sold.leadId)
      .where('event', 'sale.accepted')
      .firstOrFail()
    assert.equal(entry.actor, 'system:settlement')
    const event = await db
      .from('outbox_events')
      .where('lead_id', sold.leadId)
      .where('type', 'payout.processed')
      .firstOrFail()
    assert.equal(event.buyer_id, sold.buyer.id)
    assert.isNull(event.publisher_id)
    assert.deepInclude(event.payload.data, {
      kind: 'buyer_acceptance',
      lead_id: sold.leadId,
      buyer_id: sold.buyer.id,
      amount_cents: 2500,
      currency: 'EUR',
    })

    // A second turn finds nothing more to do.
    await settleOnce(new Date(Date.now() + 3 * HOUR))
    assert.lengthOf(await ledgerOf(sold.leadId), 9)

    const settlement = await client.get('/v1/settlement').bearerToken(sold.key)
    settlement.assertStatus(200)
    assert.deepInclude(settlement.body(), {
      currency: 'EUR',
      pending_cents: 0,
      payable_cents: 1800,
      paid_cents: 0,
      accepted_leads: 1,
      returned_leads: 0,
      open_disputes: 0,
    })
    // What the buyer pays is not the publisher's to see.
    assert.isFalse(showsAmount(settlement.text(), 2500))
  })

  test('an open dispute holds the sale where it is when the window closes', async ({
    client,
    assert,
  }) => {
    const sold = await soldLead(client, { windowHours: 1 })
    const fact = await factsOf(sold.leadId)
    const now = new Date()
    await db.table('disputes').insert({
      id: uuidv7(),
      lead_id: sold.leadId,
      publisher_id: sold.publisher.id,
      buyer_id: sold.buyer.id,
      reason: 'invalid_contact',
      status: 'open',
      price_cents: 2500,
      payout_cents: 1800,
      currency: 'EUR',
      delivered_at: fact.matched_at,
      opened_at: now,
      respond_by: new Date(now.getTime() + 72 * HOUR),
      decide_by: new Date(now.getTime() + 192 * HOUR),
      updated_at: now,
    })
    await settleOnce(new Date(Date.now() + 2 * HOUR))
    assert.equal((await factsOf(sold.leadId)).settlement, 'pending')
    assert.lengthOf(await ledgerOf(sold.leadId), 3)
  })

  test('the ledger is append-only and every movement sums to zero', async ({ client, assert }) => {
    const sold = await soldLead(client)
    await assert.rejects(
      () => db.from('ledger_entries').where('lead_id', sold.leadId).update({ amount_cents: 1 }),
      /append-only/
    )
    await assert.rejects(
      () => db.from('ledger_entries').where('lead_id', sold.leadId).delete(),
      /append-only/
    )
    await assert.rejects(
      () =>
        insertTogether(db.connection(), [
          ledgerInsert([
            ...movement('adjustment', [[account.adjustments, 100]], { currency: 'EUR' }),
          ]),
        ]),
      /does not sum to zero/
    )
    assert.lengthOf(await ledgerOf(sold.leadId), 3)
  })

  test('balances are exactly the sum of their entries, before and after folding, and the books sum to zero', async ({
    assert,
  }) => {
    const accounts = Array.from({ length: 4 }, () => `test:${uuidv7()}`)
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 3 }),
            fc.integer({ min: 0, max: 3 }),
            fc.integer({ min: -100_000, max: 100_000 }),
            fc.boolean()
          ),
          { minLength: 1, maxLength: 12 }
        ),
        async (moves) => {
          for (const [from, to, cents, fold] of moves) {
            if (from !== to && cents !== 0) {
              await insertTogether(db.connection(), [
                ledgerInsert(
                  movement(
                    'adjustment',
                    [
                      [accounts[from], cents],
                      [accounts[to], -cents],
                    ],
                    { currency: 'EUR' }
                  )
                ),
              ])
            }
            if (fold) await foldLedger(db.connection())
          }
          const sums = await db
            .from('ledger_entries')
            .whereIn('account', accounts)
            .groupBy('account')
            .select('account', db.raw('sum(amount_cents)::bigint AS cents'))
          const balances = await balancesOf(db.connection(), accounts)
          for (const row of sums) {
            assert.equal(balances.get(row.account)?.get('EUR') ?? 0, Number(row.cents))
          }
          const total = [...balances.values()].reduce(
            (sum, byCurrency) => sum + (byCurrency.get('EUR') ?? 0),
            0
          )
          assert.equal(total, 0)
        }
      ),
      { numRuns: 15 }
    )
  })
})
