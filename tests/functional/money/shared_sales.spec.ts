import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import Buyer from '#models/buyer'
import AcceptanceService from '#services/money/acceptance_service'
import { account } from '#services/money/ledger'
import { publisherSalesCsv, returnWindowOf } from '#services/money/portal_sales'
import { settleOnce } from '#services/money/settlement_clock'
import { createBuyer, createKey, operatorKey } from '#tests/support/fixtures'
import { ledgerOf } from '#tests/support/money'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
} from '#tests/functional/routing/routing_support'
import { salesOf, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import {
  HOUR,
  assertBooksBalance,
  principalOf,
  tenantRows,
  trailOf,
} from '#tests/functional/money/disputes_support'

const DAY = 24 * HOUR

/** A calendar day relative to today (UTC), as a period end. */
const day = (offset: number) => DateTime.utc().plus({ days: offset }).toISODate()!

/**
 * A lead sold to two buyers at once (a shared sale, `max_sales: 2`): A at 25.00 earning the
 * publisher 18.00, with its rule's return window of 1 hour; B at 20.00 earning 15.00, with its
 * own (the buyer's) window of 48 hours. Each buyer has a read+submit key; a third buyer bought
 * nothing. The label pays weekly, without a minimum.
 */
async function sharedLead(client: ApiClient) {
  const world = await sellingWorld({ max_sales: 2 })
  await db.table('settlement_policies').insert({
    label_id: world.label.id,
    payout_schedule: 'weekly',
    minimum_payout_cents: 0,
    updated_at: new Date(),
  })
  const [a, b, stranger] = await Promise.all([createBuyer(), createBuyer(), createBuyer()])
  await Buyer.query().where('id', b.id).update({ returnWindowHours: 48 })
  await createRule({
    buyerId: a.id,
    labelIds: [world.label.id],
    priceCents: 2500,
    payoutCents: 1800,
    exclusive: false,
    returnWindowHours: 1,
  })
  await createRule({
    buyerId: b.id,
    labelIds: [world.label.id],
    priceCents: 2000,
    payoutCents: 1500,
    exclusive: false,
  })
  const leadId = await acceptedLead(client, world)
  const outcome = await sell(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`not sold: ${JSON.stringify(outcome)}`)
  const sales = await salesOf(leadId)
  const saleOf = (buyerId: string) => sales.find((sale) => sale.buyer_id === buyerId)!
  const keyOf = async (buyerId: string) =>
    (await createKey({ buyerId, permissions: ['read', 'submit'] })).secret
  return {
    ...world,
    leadId,
    a: { buyer: a, key: await keyOf(a.id), sale: saleOf(a.id) },
    b: { buyer: b, key: await keyOf(b.id), sale: saleOf(b.id) },
    stranger: { buyer: stranger, key: await keyOf(stranger.id) },
    operator: await operatorKey(),
  }
}

type Shared = Awaited<ReturnType<typeof sharedLead>>

/** Every ledger account the lead's two sales touch. */
function accountsOf(w: Shared) {
  return [
    ...[w.a.buyer.id, w.b.buyer.id].flatMap((id) => [
      account.buyerPending(id),
      account.buyerPayable(id),
    ]),
    account.publisherPending(w.publisher.id),
    account.publisherPayable(w.publisher.id),
    account.marginPending,
    account.marginEarned,
  ]
}

async function saleRow(id: string) {
  return db.from('sales').where('id', id).firstOrFail()
}

function openDispute(client: ApiClient, w: Shared, key: string) {
  return client
    .post(`/v1/leads/${w.leadId}/disputes`)
    .bearerToken(key)
    .json({ reason: 'invalid_contact', details: 'Nobody answers.' })
}

function decide(client: ApiClient, w: Shared, id: string, outcome: 'upheld' | 'rejected') {
  return client.post(`/v1/disputes/${id}/decision`).bearerToken(w.operator).json({ outcome })
}

/** The operator's figures of today for the lead's label. */
async function reportOf(client: ApiClient, w: Shared) {
  const answer = await client
    .get('/v1/reports/kpis')
    .qs({ period: 'today', label: w.label.slug })
    .bearerToken(w.operator)
  answer.assertStatus(200)
  return answer.body().totals
}

/** A sale's window made to have closed `daysAgo` days back, then the clock's acceptance runs. */
async function closeWindowOf(saleId: string, daysAgo: number) {
  await db
    .from('sales')
    .where('id', saleId)
    .update({ settles_at: new Date(Date.now() - daysAgo * DAY) })
  await (await app.container.make(AcceptanceService)).closeWindows(new Date(), 500)
}

async function runPayouts(client: ApiClient, w: Shared, periodEnd: string) {
  const run = await client
    .post('/v1/payout-runs')
    .bearerToken(w.operator)
    .json({ label: w.label.slug, period_end: periodEnd })
  run.assertStatus(202)
  const payouts = await db
    .from('payouts')
    .where('publisher_id', w.publisher.id)
    .where('period_end', periodEnd)
  return payouts
}

async function markPaid(client: ApiClient, w: Shared, payoutId: string) {
  const paid = await client
    .post(`/v1/payouts/${payoutId}/mark-paid`)
    .bearerToken(w.operator)
    .json({ reference: `SEPA-${payoutId}` })
  paid.assertStatus(200)
}

/** A dispute the buyer opens about its sale, which must be taken; answers its id. */
async function disputed(client: ApiClient, w: Shared, key: string) {
  const opened = await openDispute(client, w, key)
  opened.assertStatus(201)
  return opened.body().id as string
}

async function linesOf(payoutId: string) {
  const lines = await db.from('payout_lines').where('payout_id', payoutId).orderBy('id')
  return lines.map((line) => [line.lead_id, line.sale_id, line.kind, Number(line.amount_cents)])
}

test.group('Money / shared sales', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('each sale is pending for its own buyer’s window, and each window closing settles that sale only', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    const soldAt = new Date(w.a.sale.sold_at).getTime()
    assert.include(w.a.sale, { settlement: 'pending', price_cents: 2500, payout_cents: 1800 })
    assert.include(w.b.sale, { settlement: 'pending', price_cents: 2000, payout_cents: 1500 })
    assert.equal(new Date(w.a.sale.settles_at).getTime() - soldAt, HOUR)
    assert.equal(new Date(w.b.sale.settles_at).getTime() - soldAt, 48 * HOUR)
    // Each buyer's lead page shows its own window and its own price.
    const windowOf = (buyerId: string) =>
      returnWindowOf(principalOf('buyer', { buyerId }), w.leadId)
    assert.equal(
      (await windowOf(w.a.buyer.id)).closes_at,
      new Date(w.a.sale.settles_at).toISOString()
    )
    assert.equal(
      (await windowOf(w.b.buyer.id)).closes_at,
      new Date(w.b.sale.settles_at).toISOString()
    )
    for (const [side, price] of [
      [w.a, 2500],
      [w.b, 2000],
    ] as const) {
      const lead = await client.get(`/v1/leads/${w.leadId}`).bearerToken(side.key)
      lead.assertStatus(200)
      assert.equal(lead.body().price_cents, price)
      // The operator finds the lead among the leads of either buyer.
      const listed = await client
        .get('/v1/leads')
        .qs({ buyer_id: side.buyer.id })
        .bearerToken(w.operator)
      assert.include(
        listed.body().data.map((row: { id: string }) => row.id),
        w.leadId
      )
    }

    // A's window closes: A's sale is final, B's stays pending, and only A is told.
    await settleOnce(new Date(Date.now() + 2 * HOUR))
    assert.equal((await saleRow(w.a.sale.id)).settlement, 'payable')
    assert.equal((await saleRow(w.b.sale.id)).settlement, 'pending')
    assert.include(await factsOf(w.leadId), { settlement: 'pending', status: 'matched' })
    const acceptance = () =>
      db
        .from('outbox_events')
        .where('lead_id', w.leadId)
        .where('type', 'payout.processed')
        .orderBy('created_at')
    let told = await acceptance()
    assert.lengthOf(told, 1)
    assert.equal(told[0].buyer_id, w.a.buyer.id)
    assert.containsSubset(told[0].payload.data, {
      kind: 'buyer_acceptance',
      buyer_id: w.a.buyer.id,
      amount_cents: 2500,
    })
    const accepted = (await ledgerOf(w.leadId)).filter((row) => row.kind === 'acceptance')
    assert.isTrue(accepted.every((row) => row.buyer_id === w.a.buyer.id))
    assert.sameDeepMembers(
      accepted.map((row) => [row.account, Number(row.amount_cents)]),
      [
        [account.buyerPending(w.a.buyer.id), -2500],
        [account.buyerPayable(w.a.buyer.id), 2500],
        [account.publisherPending(w.publisher.id), 1800],
        [account.publisherPayable(w.publisher.id), -1800],
        [account.marginPending, 700],
        [account.marginEarned, -700],
      ]
    )
    const settlement = await client.get('/v1/settlement').bearerToken(w.key)
    assert.containsSubset(settlement.body(), { pending_cents: 1500, payable_cents: 1800 })

    // B's window closes two days later: B's sale is final too, and B is told of its own.
    await settleOnce(new Date(Date.now() + 49 * HOUR))
    assert.equal((await saleRow(w.b.sale.id)).settlement, 'payable')
    assert.include(await factsOf(w.leadId), { settlement: 'payable', status: 'matched' })
    told = await acceptance()
    assert.lengthOf(told, 2)
    assert.containsSubset(told[1].payload.data, { buyer_id: w.b.buyer.id, amount_cents: 2000 })
    assert.lengthOf(
      (await trailOf(w.leadId)).filter((entry) => entry.event === 'sale.accepted'),
      2
    )
    await assertBooksBalance(assert, accountsOf(w))
  })

  test('one buyer’s upheld dispute returns its sale only: the other stands, the publisher keeps its payout, the lead is not returned', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    const opened = await openDispute(client, w, w.b.key)
    opened.assertStatus(201)
    const id = opened.body().id
    // The dispute is about B's sale: B's price, and to the publisher that sale's payout.
    assert.containsSubset(opened.body(), { delivery: { price_cents: 2000 } })
    assert.containsSubset(await db.from('disputes').where('id', id).firstOrFail(), {
      buyer_id: w.b.buyer.id,
      price_cents: 2000,
      payout_cents: 1500,
    })
    const asPublisher = await client.get(`/v1/disputes/${id}`).bearerToken(w.key)
    asPublisher.assertStatus(200)
    assert.equal(asPublisher.body().delivery.payout_cents, 1500)
    ;(await client.get(`/v1/disputes/${id}`).bearerToken(w.operator)).assertStatus(200)
    // The lead's other buyer neither reads B's dispute nor finds it in its list.
    ;(await client.get(`/v1/disputes/${id}`).bearerToken(w.a.key)).assertStatus(404)
    const listed = await client.get('/v1/disputes').bearerToken(w.a.key)
    assert.notInclude(
      listed.body().data.map((row: { id: string }) => row.id),
      id
    )
    ;(await client.post(`/v1/disputes/${id}/withdraw`).bearerToken(w.a.key)).assertStatus(404)

    // One open dispute per lead and buyer: A opens its own beside B's, but not a second one.
    const ofA = await openDispute(client, w, w.a.key)
    ofA.assertStatus(201)
    const twice = await openDispute(client, w, w.a.key)
    twice.assertStatus(409)
    assert.equal(twice.body().code, 'dispute_open')
    ;(
      await client.post(`/v1/disputes/${ofA.body().id}/withdraw`).bearerToken(w.a.key)
    ).assertStatus(200)

    ;(await decide(client, w, id, 'upheld')).assertStatus(200)
    assert.equal((await saleRow(w.b.sale.id)).settlement, 'returned')
    assert.equal((await saleRow(w.a.sale.id)).settlement, 'pending')
    // The lead stands on A's sale: its facts keep A's money only, and it is not returned.
    assert.include(await factsOf(w.leadId), {
      status: 'matched',
      settlement: 'pending',
      price_cents: 2500,
      payout_cents: 1800,
    })
    const [lead] = await tenantRows(
      w.publisher.schemaName,
      'SELECT status FROM leads WHERE id = ?',
      [w.leadId]
    )
    assert.equal(lead.status, 'matched')
    const trail = await trailOf(w.leadId)
    assert.notInclude(
      trail.map((entry) => entry.event),
      'lead.returned'
    )
    assert.equal(trail.at(-1).status_to, 'matched')
    const lookup = await client.get(`/v1/requests/${w.leadId}`).bearerToken(w.key)
    assert.equal(lookup.body().status, 'matched')
    // The return credits B its price and takes B's sale's payout from pending; A's is untouched.
    const returned = (await ledgerOf(w.leadId)).filter((row) => row.kind === 'return')
    assert.sameDeepMembers(
      returned.map((row) => [row.account, Number(row.amount_cents)]),
      [
        [account.buyerPending(w.b.buyer.id), -2000],
        [account.publisherPending(w.publisher.id), 1500],
        [account.marginPending, 500],
      ]
    )
    const settlement = await client.get('/v1/settlement').bearerToken(w.key)
    assert.containsSubset(settlement.body(), {
      pending_cents: 1800,
      accepted_leads: 1,
      returned_leads: 1,
    })
    // Reports count the kept sale's money: revenue, payout and the lead kept, no return.
    assert.containsSubset(await reportOf(client, w), {
      revenue_cents: 2500,
      payout_cents: 1800,
      drop_off: { matched: 1, kept: 1 },
      returns: 0,
    })
    // B's statement: bought and credited; A's: bought.
    const statement = async (side: Shared['a']) =>
      (await client.get(`/v1/buyers/${side.buyer.id}/statement`).bearerToken(side.key)).body()
    assert.containsSubset(await statement(w.b), {
      accepted: { count: 1, amount_cents: 2000 },
      returned: { count: 1, amount_cents: 2000 },
      net_cents: 0,
    })
    assert.containsSubset(await statement(w.a), {
      accepted: { count: 1, amount_cents: 2500 },
      returned: { count: 0, amount_cents: 0 },
      net_cents: 2500,
    })
    await assertBooksBalance(assert, accountsOf(w))

    // B may not dispute a returned sale again; A's window closes and A's sale becomes final.
    ;(await openDispute(client, w, w.b.key)).assertStatus(409)
    await settleOnce(new Date(Date.now() + 2 * HOUR))
    assert.include(await factsOf(w.leadId), { settlement: 'payable', status: 'matched' })
  })

  test('a lead is returned once both of its sales are; reports count one return and no revenue', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    for (const side of [w.a, w.b]) {
      ;(await decide(client, w, await disputed(client, w, side.key), 'upheld')).assertStatus(200)
    }
    assert.include(await factsOf(w.leadId), {
      status: 'returned',
      settlement: 'returned',
      // A lead returned altogether keeps what it was sold for.
      price_cents: 4500,
      payout_cents: 3300,
    })
    const trail = await trailOf(w.leadId)
    const returned = trail.filter((entry) => entry.event === 'lead.returned')
    assert.lengthOf(returned, 1)
    assert.include(returned[0], { status_from: 'matched', status_to: 'returned' })
    assert.containsSubset(await reportOf(client, w), {
      revenue_cents: 0,
      payout_cents: 0,
      drop_off: { matched: 1, kept: 0 },
      returns: 1,
    })
    const settlement = await client.get('/v1/settlement').bearerToken(w.key)
    assert.containsSubset(settlement.body(), {
      pending_cents: 0,
      accepted_leads: 0,
      returned_leads: 2,
    })
    await assertBooksBalance(assert, accountsOf(w))
  })

  test('a buyer that did not buy the lead can neither see it nor open a dispute about it', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    ;(await client.get(`/v1/leads/${w.leadId}`).bearerToken(w.stranger.key)).assertStatus(404)
    const refused = await openDispute(client, w, w.stranger.key)
    refused.assertStatus(404)
    assert.lengthOf(await db.from('disputes').where('lead_id', w.leadId), 0)
    await assert.rejects(() =>
      returnWindowOf(principalOf('buyer', { buyerId: w.stranger.buyer.id }), w.leadId)
    )
  })

  test('payouts pay each sale: one sale final now, the other later; the lead is paid out once both are', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    // A's sale became final two days ago; B's is still in its window.
    await closeWindowOf(w.a.sale.id, 2)
    const [first] = await runPayouts(client, w, day(-1))
    assert.include(first, { amount_cents: '1800', lead_count: 1 })
    assert.deepEqual(await linesOf(first.id), [[w.leadId, w.a.sale.id, 'earning', 1800]])
    await markPaid(client, w, first.id)
    assert.include(await saleRow(w.a.sale.id), { settlement: 'paid_out', payout_id: first.id })
    // B's sale is pending: the lead is not paid out yet.
    assert.include(await factsOf(w.leadId), { status: 'matched', settlement: 'pending' })
    assert.notInclude(
      (await trailOf(w.leadId)).map((entry) => entry.event),
      'lead.paid_out'
    )

    // B's sale becomes final and the next period pays it: now the lead is paid out.
    await closeWindowOf(w.b.sale.id, 0)
    const [second] = await runPayouts(client, w, day(0))
    assert.include(second, { amount_cents: '1500', lead_count: 1 })
    assert.deepEqual(await linesOf(second.id), [[w.leadId, w.b.sale.id, 'earning', 1500]])
    await markPaid(client, w, second.id)
    assert.include(await saleRow(w.b.sale.id), { settlement: 'paid_out', payout_id: second.id })
    assert.include(await factsOf(w.leadId), {
      status: 'paid_out',
      settlement: 'paid_out',
      payout_id: second.id,
    })
    const paidOut = (await trailOf(w.leadId)).filter((entry) => entry.event === 'lead.paid_out')
    assert.lengthOf(paidOut, 1)
    assert.include(paidOut[0], { status_from: 'matched', status_to: 'paid_out' })
    const settlement = await client.get('/v1/settlement').bearerToken(w.key)
    assert.containsSubset(settlement.body(), {
      pending_cents: 0,
      payable_cents: 0,
      paid_cents: 3300,
    })
    await assertBooksBalance(assert, accountsOf(w))
  })

  test('one payout pays both sales of a lead, a line each', async ({ client, assert }) => {
    const w = await sharedLead(client)
    await closeWindowOf(w.a.sale.id, 2)
    await closeWindowOf(w.b.sale.id, 2)
    const [payout] = await runPayouts(client, w, day(-1))
    assert.include(payout, { amount_cents: '3300', lead_count: 1 })
    assert.sameDeepMembers(await linesOf(payout.id), [
      [w.leadId, w.a.sale.id, 'earning', 1800],
      [w.leadId, w.b.sale.id, 'earning', 1500],
    ])
    // The publisher reads both lines of its lead, never a buyer or a price.
    const read = await client.get(`/v1/payouts/${payout.id}`).bearerToken(w.key)
    read.assertStatus(200)
    assert.sameDeepMembers(read.body().lines, [
      { lead_id: w.leadId, kind: 'earning', amount_cents: 1800 },
      { lead_id: w.leadId, kind: 'earning', amount_cents: 1500 },
    ])
    await markPaid(client, w, payout.id)
    for (const sale of [w.a.sale, w.b.sale]) {
      assert.include(await saleRow(sale.id), { settlement: 'paid_out', payout_id: payout.id })
    }
    assert.include(await factsOf(w.leadId), { status: 'paid_out', payout_id: payout.id })
    assert.lengthOf(
      (await trailOf(w.leadId)).filter((entry) => entry.event === 'lead.paid_out'),
      1
    )
    // The publisher's sales CSV has a row per sale, each with its payout and the payout that paid it.
    let csv = ''
    for await (const chunk of publisherSalesCsv(w.publisher.id)) csv += chunk
    assert.sameMembers(
      csv
        .trim()
        .split('\n')
        .filter((line) => line.startsWith(w.leadId))
        .map((line) => line.split(',').slice(2).join(',')),
      [`1800,EUR,paid_out,${payout.id}`, `1500,EUR,paid_out,${payout.id}`]
    )
    await assertBooksBalance(assert, accountsOf(w))
  })

  test('a sale returned after it was paid is clawed back from the next payout; the other sale stays paid', async ({
    client,
    assert,
  }) => {
    const w = await sharedLead(client)
    const id = await disputed(client, w, w.b.key)
    // Through the API a disputed sale never becomes final; the state is made by hand, as in
    // disputes.spec.ts, to show that a decision on a paid sale claws that sale back.
    await db.from('disputes').where('id', id).update({ status: 'withdrawn' })
    await closeWindowOf(w.a.sale.id, 2)
    await closeWindowOf(w.b.sale.id, 2)
    const [payout] = await runPayouts(client, w, day(-1))
    await markPaid(client, w, payout.id)
    await db.from('disputes').where('id', id).update({ status: 'responded' })
    ;(await decide(client, w, id, 'upheld')).assertStatus(200)

    const clawback = (await ledgerOf(w.leadId)).filter((row) => row.kind === 'clawback')
    assert.sameDeepMembers(
      clawback.map((row) => [row.account, Number(row.amount_cents)]),
      [
        [account.buyerPayable(w.b.buyer.id), -2000],
        [account.publisherPayable(w.publisher.id), 1500],
        [account.marginEarned, 500],
      ]
    )
    assert.equal((await saleRow(w.b.sale.id)).settlement, 'returned')
    assert.equal((await saleRow(w.a.sale.id)).settlement, 'paid_out')
    // The lead keeps A's paid sale: paid out, with A's money.
    assert.include(await factsOf(w.leadId), {
      status: 'paid_out',
      settlement: 'paid_out',
      price_cents: 2500,
      payout_cents: 1800,
    })

    // The next sale of the publisher pays net of the clawback: a line of -15.00 for B's sale.
    await closeWindowOf((await sellAnother(client, w)).id, 1)
    const [next] = await runPayouts(client, w, day(0))
    assert.sameDeepMembers(
      (await linesOf(next.id)).map(([leadId, saleId, kind, cents]) => [
        leadId === w.leadId ? 'shared' : 'other',
        saleId === w.b.sale.id ? 'B' : 'another',
        kind,
        cents,
      ]),
      [
        ['other', 'another', 'earning', 1800],
        ['shared', 'B', 'clawback', -1500],
      ]
    )
    assert.equal(Number(next.amount_cents), 300)
    await assertBooksBalance(assert, accountsOf(w))
  })
})

/** Another lead of the world, sold the same way (to both buyers); answers A's sale of it. */
async function sellAnother(client: ApiClient, w: Shared) {
  const leadId = await acceptedLead(client, w)
  if ((await sell(leadId)).outcome !== 'matched') throw new Error('not sold')
  const sales = await salesOf(leadId)
  // Only A's sale of it is made final: B's stays in its window.
  return sales.find((sale) => sale.buyer_id === w.a.buyer.id)!
}
