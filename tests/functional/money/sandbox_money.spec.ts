import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import WebhookEndpoint from '#models/webhook_endpoint'
import AcceptanceService from '#services/money/acceptance_service'
import { accountsOf } from '#services/money/ledger'
import { runDuePayouts } from '#services/money/payout_run_service'
import {
  OVERVIEW_SORTS,
  settlementOverview,
  settlementTotals,
} from '#services/money/settlement_overview'
import { lastFullPeriodEnd } from '#services/money/payout_period'
import { createBuyer, createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import { Receiver, compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
  route,
} from '#tests/functional/routing/routing_support'
import { dateWindows, ledgerOf, soldLead } from '#tests/support/money'
import {
  answerDispute,
  disputable,
  openDispute,
  principalOf,
} from '#tests/functional/money/disputes_support'

/**
 * The sandbox behaves like live (docs/money.md, "Sandbox"): a sandbox sale is disputed, returned,
 * made final and paid out on `sandbox:` accounts, its events reach sandbox endpoints only, and
 * nothing crosses between the two worlds in either direction.
 */

const DAY = 86_400_000
const day = (offset: number) => DateTime.utc().plus({ days: offset }).toISODate()!

/** A real receiver per owner and environment, each behind an endpoint made by a key of that environment. */
async function receivers(
  client: ApiClient,
  keys: Record<string, string>,
  events: string[],
  cleanup: (fn: () => Promise<void>) => void
) {
  const made: Record<string, Receiver> = {}
  const endpoints: string[] = []
  for (const [name, key] of Object.entries(keys)) {
    made[name] = await Receiver.start()
    const response = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: made[name].url, events })
    response.assertStatus(201)
    endpoints.push(response.body().id)
  }
  cleanup(async () => {
    await WebhookEndpoint.query().whereIn('id', endpoints).delete()
    await Promise.all(Object.values(made).map((receiver) => receiver.close()))
  })
  return made
}

/** The types a receiver heard about one dispute or payout, in arrival order. */
function heard(receiver: Receiver, field: 'dispute_id' | 'payout_id', id: string) {
  return receiver.received
    .map((request) => request.json)
    .filter((event) => event?.data?.[field] === id)
    .map((event) => event.type)
}

/** The live money a publisher's live key reads; a sandbox sale must never move it. */
async function liveSettlement(client: ApiClient, liveKey: string) {
  const response = await client.get('/v1/settlement').bearerToken(liveKey)
  response.assertStatus(200)
  return response.body()
}

/** The clock's acceptance makes due sales final; then they are dated `daysAgo` days back. */
async function makeFinal(leadIds: string[], daysAgo = 0) {
  await (await app.container.make(AcceptanceService)).closeWindows(new Date(), 500)
  if (daysAgo > 0) await dateWindows(leadIds, new Date(Date.now() - daysAgo * DAY))
  for (const leadId of leadIds) {
    const fact = await factsOf(leadId)
    if (fact.settlement !== 'payable') throw new Error(`${leadId} is ${fact.settlement}`)
  }
}

/**
 * One publisher of a label of its own (weekly, no minimum) with a sandbox sale and a live sale,
 * each to a buyer of that environment whose return window is 0; keys of both environments.
 */
async function twoWorlds(client: ApiClient) {
  const sandbox = await soldLead(client, { windowHours: 0, environment: 'sandbox' })
  const label = await createLabel()
  await Publisher.query().where('id', sandbox.publisher.id).update({ labelId: label.id })
  await db.table('settlement_policies').insert({
    label_id: label.id,
    payout_schedule: 'weekly',
    minimum_payout_cents: 0,
    updated_at: new Date(),
  })
  const liveBuyer = await createBuyer()
  await Buyer.query().where('id', liveBuyer.id).update({ returnWindowHours: 0 })
  await createRule({
    buyerId: liveBuyer.id,
    publisherIds: [sandbox.publisher.id],
    priceCents: 4000,
    payoutCents: 3000,
    environment: 'live',
  })
  const { secret: liveKey } = await createKey({ publisherId: sandbox.publisher.id })
  const liveLead = await acceptedLead(client, { publisher: sandbox.publisher, key: liveKey })
  const outcome = await route(liveLead)
  if (outcome.outcome !== 'matched') throw new Error(`live lead not sold: ${outcome.outcome}`)
  return {
    publisher: sandbox.publisher,
    label,
    sandboxKey: sandbox.key,
    liveKey,
    sandboxLead: sandbox.leadId,
    sandboxBuyer: sandbox.buyer,
    sandboxBuyerKey: sandbox.buyerKey,
    liveLead,
    liveBuyer,
    operator: await operatorKey(),
  }
}

test.group('Money / sandbox: disputes', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a sandbox sale is disputed by the buyer’s sandbox key, answered and upheld: sandbox events and a sandbox return, nothing live', async ({
    client,
    assert,
    cleanup,
  }) => {
    const restore = compressWebhookClock()
    cleanup(async () => restore())
    const world = await disputable(client, {
      priceCents: 2500,
      payoutCents: 1800,
      windowHours: 2,
      environment: 'sandbox',
    })
    const { secret: publisherLive } = await createKey({ publisherId: world.publisher.id })
    const { secret: buyerLive } = await createKey({ buyerId: world.buyer.id })
    const hooks = await receivers(
      client,
      {
        publisherSandbox: world.key,
        publisherLive,
        buyerSandbox: world.buyerKey,
        buyerLive,
      },
      ['dispute.opened', 'dispute.responded', 'dispute.decided'],
      cleanup
    )
    const runtime = await startRuntime()
    cleanup(async () => runtime.stop())
    const liveBefore = await liveSettlement(client, publisherLive)

    const opened = await openDispute(client, world, { reason: 'invalid_contact' })
    opened.assertStatus(201)
    const id = opened.body().id
    assert.deepInclude(opened.body(), { status: 'open', environment: 'sandbox' })
    assert.equal((await db.from('disputes').where('id', id).firstOrFail()).environment, 'sandbox')
    await answerDispute(client, world, id)
    const decided = await client
      .post(`/v1/disputes/${id}/decision`)
      .bearerToken(world.operatorKey)
      .json({ outcome: 'upheld' })
    decided.assertStatus(200)
    assert.equal(decided.body().status, 'upheld')

    // The return books to sandbox accounts only; the lead is returned like a live one would be.
    const rows = await ledgerOf(world.leadId)
    assert.sameMembers([...new Set(rows.map((row) => row.kind))], ['sale', 'return'])
    for (const row of rows) assert.match(row.account, /^sandbox:/)
    assert.equal((await factsOf(world.leadId)).settlement, 'returned')

    // Each party's sandbox endpoint hears the three steps; its live endpoint nothing.
    const steps = ['dispute.opened', 'dispute.responded', 'dispute.decided']
    await eventually(
      () =>
        heard(hooks.publisherSandbox, 'dispute_id', id).length === 3 &&
        heard(hooks.buyerSandbox, 'dispute_id', id).length === 3,
      'the sandbox endpoints hear every step'
    )
    assert.sameMembers(heard(hooks.publisherSandbox, 'dispute_id', id), steps)
    assert.sameMembers(heard(hooks.buyerSandbox, 'dispute_id', id), steps)
    assert.deepEqual(heard(hooks.publisherLive, 'dispute_id', id), [])
    assert.deepEqual(heard(hooks.buyerLive, 'dispute_id', id), [])
    const events = await db.from('outbox_events').where('lead_id', world.leadId)
    for (const event of events) assert.equal(event.environment, 'sandbox', event.type)

    // Sandbox keys read the dispute; live keys of the same publisher and buyer do not.
    for (const key of [world.key, world.buyerKey]) {
      ;(await client.get(`/v1/disputes/${id}`).bearerToken(key)).assertStatus(200)
      const listed = await client.get('/v1/disputes').bearerToken(key)
      assert.include(
        listed.body().data.map((dispute: { id: string }) => dispute.id),
        id
      )
      const asked = await client.get('/v1/disputes').qs({ environment: 'live' }).bearerToken(key)
      asked.assertStatus(403)
      assert.equal(asked.body().code, 'filter_not_allowed')
    }
    for (const key of [publisherLive, buyerLive]) {
      ;(await client.get(`/v1/disputes/${id}`).bearerToken(key)).assertStatus(404)
      const listed = await client.get('/v1/disputes').bearerToken(key)
      assert.notInclude(
        listed.body().data.map((dispute: { id: string }) => dispute.id),
        id
      )
      ;(
        await client
          .post(`/v1/disputes/${id}/responses`)
          .bearerToken(key)
          .json({ text: 'Not yours to see.' })
      ).assertStatus(404)
    }
    // The operator lists live disputes unless it asks for the sandbox's.
    const operatorLive = await client
      .get('/v1/disputes')
      .qs({ publisher_id: world.publisher.id })
      .bearerToken(world.operatorKey)
    assert.deepEqual(operatorLive.body().data, [])
    const operatorSandbox = await client
      .get('/v1/disputes')
      .qs({ publisher_id: world.publisher.id, environment: 'sandbox' })
      .bearerToken(world.operatorKey)
    assert.deepEqual(
      operatorSandbox.body().data.map((dispute: { id: string }) => dispute.id),
      [id]
    )
    ;(
      await client.get('/v1/disputes').qs({ environment: 'staging' }).bearerToken(world.operatorKey)
    ).assertStatus(422)

    // The publisher's sandbox settlement counts the return; its live one is untouched.
    const sandboxSettlement = await client.get('/v1/settlement').bearerToken(world.key)
    assert.deepInclude(sandboxSettlement.body(), {
      pending_cents: 0,
      payable_cents: 0,
      accepted_leads: 0,
      returned_leads: 1,
      open_disputes: 0,
    })
    assert.deepEqual(await liveSettlement(client, publisherLive), liveBefore)
  })

  test('the buyer’s sandbox key withdraws its sandbox dispute; the clock then makes the sale final on sandbox accounts', async ({
    client,
    assert,
  }) => {
    const world = await disputable(client, { windowHours: 2, environment: 'sandbox' })
    const opened = await openDispute(client, world, { reason: 'fraud', details: 'Made up.' })
    opened.assertStatus(201)
    const id = opened.body().id
    const withdrawn = await client.post(`/v1/disputes/${id}/withdraw`).bearerToken(world.buyerKey)
    withdrawn.assertStatus(200)
    assert.deepInclude(withdrawn.body(), { status: 'withdrawn', environment: 'sandbox' })
    const decided = await db
      .from('outbox_events')
      .where('lead_id', world.leadId)
      .where('type', 'dispute.decided')
    assert.lengthOf(decided, 2)
    for (const event of decided) assert.equal(event.environment, 'sandbox')

    // The window closes: final, `sale.accepted` on the trail, the acceptance on sandbox accounts.
    await dateWindows([world.leadId], new Date(Date.now() - 1000))
    await (await app.container.make(AcceptanceService)).closeWindows(new Date(), 500)
    assert.equal((await factsOf(world.leadId)).settlement, 'payable')
    const acceptance = (await ledgerOf(world.leadId)).filter((row) => row.kind === 'acceptance')
    assert.isAbove(acceptance.length, 0)
    for (const row of acceptance) assert.match(row.account, /^sandbox:/)
    const accepted = await db
      .from('audit.entries')
      .where('lead_id', world.leadId)
      .where('event', 'sale.accepted')
      .firstOrFail()
    assert.equal(accepted.environment, 'sandbox')
    const told = await db
      .from('outbox_events')
      .where('lead_id', world.leadId)
      .where('type', 'payout.processed')
      .firstOrFail()
    assert.equal(told.environment, 'sandbox')
  })
})

test.group('Money / sandbox: payouts', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a sandbox run pays sandbox sales only, from sandbox accounts; paid, it tells the sandbox endpoint; a live run never takes a sandbox sale', async ({
    client,
    assert,
    cleanup,
  }) => {
    const restore = compressWebhookClock()
    cleanup(async () => restore())
    const w = await twoWorlds(client)
    await makeFinal([w.sandboxLead, w.liveLead])
    const hooks = await receivers(
      client,
      { sandbox: w.sandboxKey, live: w.liveKey },
      ['payout.processed'],
      cleanup
    )
    const runtime = await startRuntime()
    cleanup(async () => runtime.stop())
    const liveBefore = await liveSettlement(client, w.liveKey)
    assert.deepInclude(liveBefore, { payable_cents: 3000, accepted_leads: 1 })

    // A bad environment changes nothing.
    const refused = await client
      .post('/v1/payout-runs')
      .bearerToken(w.operator)
      .json({ label: w.label.slug, period_end: day(0), environment: 'staging' })
    refused.assertStatus(422)
    assert.lengthOf(await db.from('payouts').where('publisher_id', w.publisher.id), 0)

    const ran = await client
      .post('/v1/payout-runs')
      .bearerToken(w.operator)
      .json({ label: w.label.slug, period_end: day(0), environment: 'sandbox' })
    ran.assertStatus(202)
    assert.containsSubset(ran.body().runs, [
      { label: w.label.slug, environment: 'sandbox', payouts: 1 },
    ])
    const [sandboxPayout, ...others] = await db
      .from('payouts')
      .where('publisher_id', w.publisher.id)
    assert.lengthOf(others, 0)
    assert.deepInclude(sandboxPayout, { environment: 'sandbox', lead_count: 1 })
    assert.equal(Number(sandboxPayout.amount_cents), 1800)
    const lines = await db.from('payout_lines').where('payout_id', sandboxPayout.id)
    assert.deepEqual(
      lines.map((line) => [line.lead_id, line.kind, Number(line.amount_cents)]),
      [[w.sandboxLead, 'earning', 1800]]
    )
    const runRow = await db
      .from('payout_runs')
      .where('label_id', w.label.id)
      .where('environment', 'sandbox')
      .first()
    assert.exists(runRow)

    // Who reads it: the sandbox key and the operator; the live key of the same publisher does not.
    const mine = await client.get('/v1/payouts').bearerToken(w.sandboxKey)
    assert.deepEqual(
      mine.body().data.map((payout: { id: string }) => payout.id),
      [sandboxPayout.id]
    )
    assert.equal(mine.body().data[0].environment, 'sandbox')
    ;(await client.get(`/v1/payouts/${sandboxPayout.id}`).bearerToken(w.sandboxKey)).assertStatus(
      200
    )
    ;(await client.get(`/v1/payouts/${sandboxPayout.id}`).bearerToken(w.liveKey)).assertStatus(404)
    assert.deepEqual((await client.get('/v1/payouts').bearerToken(w.liveKey)).body().data, [])
    const crossing = await client
      .get('/v1/payouts')
      .qs({ environment: 'live' })
      .bearerToken(w.sandboxKey)
    crossing.assertStatus(403)
    const operatorLive = await client
      .get('/v1/payouts')
      .qs({ publisher_id: w.publisher.id })
      .bearerToken(w.operator)
    assert.deepEqual(operatorLive.body().data, [])
    const operatorSandbox = await client
      .get('/v1/payouts')
      .qs({ publisher_id: w.publisher.id, environment: 'sandbox' })
      .bearerToken(w.operator)
    assert.deepEqual(
      operatorSandbox.body().data.map((payout: { id: string }) => payout.id),
      [sandboxPayout.id]
    )

    // Paid: the sandbox cash pays the sandbox payable, the lead is paid out, the sandbox endpoint hears.
    const paid = await client
      .post(`/v1/payouts/${sandboxPayout.id}/mark-paid`)
      .bearerToken(w.operator)
      .json({ reference: 'SANDBOX-1' })
    paid.assertStatus(200)
    assert.deepInclude(paid.body(), { status: 'paid', environment: 'sandbox' })
    const sandbox = accountsOf('sandbox')
    const booked = await db
      .from('ledger_entries')
      .where('kind', 'payout')
      .where('reference', sandboxPayout.id)
      .orderBy('id')
    assert.deepEqual(
      booked.map((row) => [row.account, Number(row.amount_cents)]),
      [
        [sandbox.publisherPayable(w.publisher.id), 1800],
        [sandbox.cash, -1800],
      ]
    )
    assert.deepInclude(await factsOf(w.sandboxLead), { settlement: 'paid_out' })
    const paidOut = await db
      .from('audit.entries')
      .where('lead_id', w.sandboxLead)
      .where('event', 'lead.paid_out')
      .firstOrFail()
    assert.equal(paidOut.environment, 'sandbox')
    await eventually(
      () => heard(hooks.sandbox, 'payout_id', sandboxPayout.id).length === 1,
      'payout.processed at the sandbox endpoint'
    )
    const event = hooks.sandbox.received.find(
      (request) => request.json?.data?.payout_id === sandboxPayout.id
    )!.json
    assert.deepInclude(event.data, {
      kind: 'publisher_payout',
      amount_cents: 1800,
      reference: 'SANDBOX-1',
    })
    assert.deepEqual(heard(hooks.live, 'payout_id', sandboxPayout.id), [])

    // The sandbox settlement shows it paid; the live settlement has not moved at all.
    assert.deepInclude((await client.get('/v1/settlement').bearerToken(w.sandboxKey)).body(), {
      pending_cents: 0,
      payable_cents: 0,
      paid_cents: 1800,
      accepted_leads: 1,
    })
    assert.deepEqual(await liveSettlement(client, w.liveKey), liveBefore)

    // The live run takes the live sale only, and the sandbox payout stays out of live sight.
    const live = await client
      .post('/v1/payout-runs')
      .bearerToken(w.operator)
      .json({ label: w.label.slug, period_end: day(0) })
    live.assertStatus(202)
    assert.containsSubset(live.body().runs, [{ environment: 'live', payouts: 1 }])
    const livePayout = await db
      .from('payouts')
      .where('publisher_id', w.publisher.id)
      .where('environment', 'live')
      .firstOrFail()
    assert.equal(Number(livePayout.amount_cents), 3000)
    assert.deepEqual(
      (await db.from('payout_lines').where('payout_id', livePayout.id)).map((line) => line.lead_id),
      [w.liveLead]
    )
    ;(await client.get(`/v1/payouts/${livePayout.id}`).bearerToken(w.sandboxKey)).assertStatus(404)
    ;(
      await client
        .post(`/v1/payouts/${livePayout.id}/mark-failed`)
        .bearerToken(w.operator)
        .json({ reason: 'IBAN rejected' })
    ).assertStatus(200)
    // Running either environment again makes nothing new for this period.
    for (const environment of ['live', 'sandbox']) {
      const again = await client
        .post('/v1/payout-runs')
        .bearerToken(w.operator)
        .json({ label: w.label.slug, period_end: day(0), environment })
      again.assertStatus(202)
    }
    assert.lengthOf(await db.from('payouts').where('publisher_id', w.publisher.id), 2)

    // Statements: the sandbox buyer's sandbox key reads its purchase, its live key none.
    const path = `/v1/buyers/${w.sandboxBuyer.id}/statement`
    const { secret: buyerLive } = await createKey({ buyerId: w.sandboxBuyer.id })
    assert.deepInclude((await client.get(path).bearerToken(w.sandboxBuyerKey)).body(), {
      accepted: { count: 1, amount_cents: 2500 },
      net_cents: 2500,
    })
    assert.deepInclude((await client.get(path).bearerToken(buyerLive)).body(), {
      accepted: { count: 0, amount_cents: 0 },
      net_cents: 0,
    })
  })

  test('the settlement clock runs every label for the sandbox too', async ({ client, assert }) => {
    const w = await twoWorlds(client)
    await makeFinal([w.sandboxLead, w.liveLead], 8)
    await runDuePayouts(new Date())
    const payouts = await db
      .from('payouts')
      .where('publisher_id', w.publisher.id)
      .orderBy('environment')
      .select('environment', 'amount_cents', db.raw('period_end::text AS period_end'))
    const periodEnd = lastFullPeriodEnd('weekly', new Date())
    assert.deepEqual(
      payouts.map((row) => [row.environment, Number(row.amount_cents), row.period_end]),
      [
        ['live', 3000, periodEnd],
        ['sandbox', 1800, periodEnd],
      ]
    )
    const runs = await db.from('payout_runs').where('label_id', w.label.id).orderBy('environment')
    assert.deepEqual(
      runs.map((run) => [run.environment, run.trigger, run.payouts]),
      [
        ['live', 'schedule', 1],
        ['sandbox', 'schedule', 1],
      ]
    )
  })

  test('the operator’s settlement overview counts live money only, whatever it is sorted by', async ({
    client,
    assert,
  }) => {
    const w = await twoWorlds(client)
    await makeFinal([w.sandboxLead, w.liveLead])
    const operator = principalOf('operator')
    for (const sort of OVERVIEW_SORTS) {
      const page = await settlementOverview(operator, { label: w.label.slug, sort })
      assert.lengthOf(page.data, 1, sort)
      assert.containsSubset(page.data[0], {
        publisher_id: w.publisher.id,
        accepted_leads: 1,
        returned_leads: 0,
        currencies: [
          {
            currency: 'EUR',
            pending_cents: 0,
            payable_cents: 3000,
            revenue_cents: 4000,
            payout_cents: 3000,
            margin_cents: 1000,
          },
        ],
      })
    }
    const totals = await settlementTotals(operator)
    assert.isArray(totals.margin)
  })
})
