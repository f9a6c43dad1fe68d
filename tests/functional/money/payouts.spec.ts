import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import locks from '@adonisjs/lock/services/main'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import AccessLogEntry from '#models/access_log_entry'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import WebhookEndpoint from '#models/webhook_endpoint'
import AcceptanceService from '#services/money/acceptance_service'
import { account, ledgerInsert, movement } from '#services/money/ledger'
import { PAYOUT_RUN_LOCK, runDuePayouts } from '#services/money/payout_run_service'
import { insertTogether } from '#services/sql/insert_together'
import { createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import {
  acceptedLead,
  disableUnscopedRules,
  factsOf,
  route,
} from '#tests/functional/routing/routing_support'
import { dateWindows, returnByHand, soldLead, showsAmount } from '#tests/support/money'

const DAY = 86_400_000

/** A calendar day relative to today (UTC), as a period end. */
const day = (offset: number) => DateTime.utc().plus({ days: offset }).toISODate()!

/**
 * A publisher of a label of its own with `count` sales of 18.00 to one buyer whose return
 * window is 0 (final as soon as the clock turns), and an operator key.
 */
async function world(client: ApiClient, count = 1, options: { minimum?: number } = {}) {
  const sold = await soldLead(client, { priceCents: 2500, payoutCents: 1800, windowHours: 0 })
  const label = await createLabel()
  await Publisher.query().where('id', sold.publisher.id).update({ labelId: label.id })
  if (options.minimum !== undefined) {
    await db.table('settlement_policies').insert({
      label_id: label.id,
      payout_schedule: 'weekly',
      minimum_payout_cents: options.minimum,
      updated_at: new Date(),
    })
  }
  const leads = [sold.leadId]
  for (let i = 1; i < count; i++) leads.push(await sellOne(client, sold))
  return { ...sold, label, leads, operator: await operatorKey() }
}

async function sellOne(client: ApiClient, sold: { publisher: { slug: string }; key: string }) {
  const leadId = await acceptedLead(client, sold)
  const outcome = await route(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`not sold: ${JSON.stringify(outcome)}`)
  return leadId
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

/** A dispute upheld after the sale was final, as the disputes engine books it: a clawback. */
function clawBack(leadId: string) {
  return returnByHand(leadId, 'payable')
}

function runPayouts(client: ApiClient, key: string, body: Record<string, unknown>) {
  return client.post('/v1/payout-runs').bearerToken(key).json(body)
}

/** The operator closes a payout: paid with a transfer's reference, or failed with a reason. */
function close(
  client: ApiClient,
  key: string,
  payoutId: string,
  body: { reference: string } | { reason: string }
) {
  const action = 'reference' in body ? 'mark-paid' : 'mark-failed'
  return client.post(`/v1/payouts/${payoutId}/${action}`).bearerToken(key).json(body)
}

/** A publisher's payouts, oldest first, their period days as text. */
function payoutsOf(publisherId: string) {
  return db
    .from('payouts')
    .where('publisher_id', publisherId)
    .orderBy('id')
    .select(
      '*',
      db.raw('period_start::text AS period_start'),
      db.raw('period_end::text AS period_end')
    )
}

async function linesOf(payoutId: string) {
  const lines = await db.from('payout_lines').where('payout_id', payoutId).orderBy('id')
  return lines.map((line) => [line.lead_id, line.kind, Number(line.amount_cents)])
}

/** The payout (paid or open, not failed) that lists the sale as an earning, if any. */
async function payoutOf(leadId: string) {
  const line = await db
    .from('payout_lines as l')
    .join('payouts as p', 'p.id', 'l.payout_id')
    .where('l.lead_id', leadId)
    .where('l.kind', 'earning')
    .whereNot('p.status', 'failed')
    .select('p.id')
    .first()
  return (line?.id as string | undefined) ?? null
}

async function payableBalance(publisherId: string) {
  const rows = await db
    .from('ledger_entries')
    .where('account', account.publisherPayable(publisherId))
    .sum('amount_cents as cents')
  return Number(rows[0].cents ?? 0)
}

async function conforms(client: ApiClient) {
  const checker = schemaChecker((await client.get('/v1/openapi.json')).body())
  return (schema: string, body: unknown) => {
    const check = checker.compile(pointerTo('components', 'schemas', schema))
    if (!check(body)) throw new Error(`${schema}: ${JSON.stringify(check.errors)}`)
  }
}

test.group('Money / payout runs', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a run pays the sales final by the end of the period, and only those; running again creates nothing', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 2)
    const [early, late] = w.leads
    await makeFinal([early], 3)
    await makeFinal([late])
    // A sale still inside its buyer's window is not the publisher's to be paid yet.
    await Buyer.query().where('id', w.buyer.id).update({ returnWindowHours: 48 })
    const pending = await sellOne(client, w)
    // Another label's publisher, owed as much: a run for this label leaves it alone.
    const other = await world(client, 1)
    await makeFinal(other.leads, 3)

    const first = await runPayouts(client, w.operator, {
      label: w.label.slug,
      period_end: day(-1),
    })
    first.assertStatus(202)
    ;(await conforms(client))('PayoutRun', first.body())
    assert.deepEqual(first.body().runs.length, 1)
    assert.deepInclude(first.body().runs[0], {
      label: w.label.slug,
      period_end: day(-1),
      publishers: 1,
      payouts: 1,
      totals: [{ currency: 'EUR', payouts: 1, amount_cents: 1800 }],
    })
    const [payout] = await payoutsOf(w.publisher.id)
    assert.deepInclude(payout, {
      status: 'scheduled',
      currency: 'EUR',
      lead_count: 1,
      label_id: w.label.id,
      period_start: null,
    })
    assert.equal(Number(payout.amount_cents), 1800)
    assert.deepEqual(await linesOf(payout.id), [[early, 'earning', 1800]])
    assert.equal(await payoutOf(early), payout.id)
    // A payout holds its sales by its lines; their facts name it once it is paid.
    assert.isNull((await factsOf(early)).payout_id)
    assert.isNull(await payoutOf(late))
    assert.equal((await factsOf(pending)).settlement, 'pending')
    assert.isNull(await payoutOf(pending))
    assert.isNull(await payoutOf(other.leads[0]))
    // Money leaves when a payout is paid: nothing is booked yet, the payable balance stands.
    assert.equal(await payableBalance(w.publisher.id), -3600)
    const run = await db.from('payout_runs').where('id', first.body().runs[0].id).firstOrFail()
    assert.deepInclude(run, { trigger: 'api', label_id: w.label.id, payouts: 1 })
    assert.match(run.actor, /^api_key:/)

    // Idempotent per publisher and period.
    const again = await runPayouts(client, w.operator, {
      label: w.label.slug,
      period_end: day(-1),
    })
    again.assertStatus(202)
    assert.equal(again.body().payouts, 0)
    assert.lengthOf(await payoutsOf(w.publisher.id), 1)

    // The next period takes the later sale, from the day after the previous payout.
    const next = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    assert.equal(next.body().payouts, 1)
    const [, second] = await payoutsOf(w.publisher.id)
    assert.deepInclude(second, { period_start: day(0), lead_count: 1 })
    assert.deepEqual(await linesOf(second.id), [[late, 'earning', 1800]])
    assert.isNull(await payoutOf(pending))

    const logged = await AccessLogEntry.query()
      .where('action', 'payout_run.created')
      .where('subject_id', first.body().runs[0].id)
      .firstOrFail()
    assert.equal(logged.details.payouts, 1)
  })

  test("the label's minimum holds a payout back until the balance reaches it", async ({
    client,
    assert,
  }) => {
    const w = await world(client, 1, { minimum: 3000 })
    await makeFinal(w.leads, 2)
    const held = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    held.assertStatus(202)
    assert.deepInclude(held.body().runs[0], { publishers: 0, payouts: 0 })
    assert.lengthOf(await payoutsOf(w.publisher.id), 0)
    assert.isNull(await payoutOf(w.leads[0]))

    // Nothing was made for that period, so once the balance reaches the minimum it is paid.
    const more = await sellOne(client, w)
    await makeFinal([more], 2)
    const paid = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    assert.equal(paid.body().payouts, 1)
    const [payout] = await payoutsOf(w.publisher.id)
    assert.equal(Number(payout.amount_cents), 3600)
    assert.sameDeepMembers(await linesOf(payout.id), [
      [w.leads[0], 'earning', 1800],
      [more, 'earning', 1800],
    ])
  })

  test('a clawback nets against the next payout; a negative balance carries forward', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 1)
    const [returned] = w.leads
    await makeFinal([returned], 3)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-2) })
    const [first] = await payoutsOf(w.publisher.id)
    ;(await close(client, w.operator, first.id, { reference: 'SEPA-1' })).assertStatus(200)

    // Returned after it was paid out: the publisher owes the platform its 18.00.
    await clawBack(returned)
    assert.equal(await payableBalance(w.publisher.id), 1800)
    const owing = await client.get('/v1/settlement').bearerToken(w.key)
    assert.equal(owing.body().payable_cents, -1800)

    // One more sale only brings it back to zero: nothing to pay, nothing created.
    const b = await sellOne(client, w)
    await makeFinal([b], 2)
    const even = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    assert.equal(even.body().payouts, 0)
    assert.lengthOf(await payoutsOf(w.publisher.id), 1)

    // Two more, and a manual credit of 5.00: the payout nets the clawback once, on a line of its own.
    const c = await sellOne(client, w)
    const d = await sellOne(client, w)
    await makeFinal([c, d])
    await insertTogether(db.connection(), [
      ledgerInsert(
        movement(
          'adjustment',
          [
            [account.publisherPayable(w.publisher.id), -500],
            [account.adjustments, 500],
          ],
          { currency: 'EUR', publisherId: w.publisher.id, reference: 'bonus' }
        )
      ),
    ])
    const netted = await runPayouts(client, w.operator, {
      label: w.label.slug,
      period_end: day(0),
    })
    assert.equal(netted.body().payouts, 1)
    const [, second] = await payoutsOf(w.publisher.id)
    assert.equal(Number(second.amount_cents), 3 * 1800 - 1800 + 500)
    assert.equal(second.lead_count, 3)
    assert.sameDeepMembers(await linesOf(second.id), [
      [b, 'earning', 1800],
      [c, 'earning', 1800],
      [d, 'earning', 1800],
      [returned, 'clawback', -1800],
      [null, 'adjustment', 500],
    ])
    const lines = await linesOf(second.id)
    assert.equal(
      lines.reduce((sum, line) => sum + (line[2] as number), 0),
      Number(second.amount_cents)
    )
    ;(await close(client, w.operator, second.id, { reference: 'SEPA-2' })).assertStatus(200)
    assert.equal(await payableBalance(w.publisher.id), 0)
  })

  test('a clawback netted while the payout that paid the sale was open is given back when that payout fails', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 2)
    const [a, b] = w.leads
    await makeFinal([a, b], 3)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-2) })
    const [first] = await payoutsOf(w.publisher.id)
    await clawBack(a)

    const more = [await sellOne(client, w), await sellOne(client, w), await sellOne(client, w)]
    await makeFinal(more, 2)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    const [, second] = await payoutsOf(w.publisher.id)
    assert.equal(Number(second.amount_cents), 3 * 1800 - 1800)
    assert.deepInclude(await linesOf(second.id), [a, 'clawback', -1800])

    const failed = await close(client, w.operator, first.id, { reason: 'IBAN rejected' })
    failed.assertStatus(200)
    assert.deepInclude(failed.body(), { status: 'failed', failure: 'IBAN rejected' })
    // Its sales are released; its lines stay as the record of what it was.
    assert.isNull(await payoutOf(a))
    assert.isNull(await payoutOf(b))
    assert.lengthOf(await linesOf(first.id), 2)

    // a was never paid, so the clawback netted on the second payout comes back; b is paid again.
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    const [, , third] = await payoutsOf(w.publisher.id)
    assert.equal(Number(third.amount_cents), 3600)
    assert.sameDeepMembers(await linesOf(third.id), [
      [b, 'earning', 1800],
      [a, 'clawback', 1800],
    ])
    // Everything owed is on an open payout: a paid second and third leave the books square.
    for (const payout of [second, third]) {
      ;(
        await close(client, w.operator, payout.id, { reference: `SEPA-${payout.id}` })
      ).assertStatus(200)
    }
    assert.equal(await payableBalance(w.publisher.id), 0)
  })

  test('one payout per currency: a currency below the minimum waits while another is paid', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 3, { minimum: 2000 })
    const [a, b, c] = w.leads
    const inDollars = async (leadIds: string[]) => {
      await db.from('sales').whereIn('lead_id', leadIds).update({ currency: 'USD' })
      await db.from('lead_facts').whereIn('lead_id', leadIds).update({ currency: 'USD' })
    }
    await inDollars([c])
    await makeFinal([a, b, c], 2)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    const [euros] = await payoutsOf(w.publisher.id)
    assert.deepInclude(euros, { currency: 'EUR', lead_count: 2 })
    assert.sameDeepMembers(await linesOf(euros.id), [
      [a, 'earning', 1800],
      [b, 'earning', 1800],
    ])
    // 18.00 in dollars is below the minimum: that sale stays on no payout.
    assert.isNull(await payoutOf(c))

    const d = await sellOne(client, w)
    await inDollars([d])
    const e = await sellOne(client, w)
    const f = await sellOne(client, w)
    await makeFinal([d, e, f])
    const both = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    assert.deepEqual(both.body().runs[0].totals, [
      { currency: 'EUR', payouts: 1, amount_cents: 3600 },
      { currency: 'USD', payouts: 1, amount_cents: 3600 },
    ])
    const [, second, third] = await payoutsOf(w.publisher.id)
    const byCurrency = Object.fromEntries([second, third].map((row) => [row.currency, row]))
    assert.sameDeepMembers(await linesOf(byCurrency.EUR.id), [
      [e, 'earning', 1800],
      [f, 'earning', 1800],
    ])
    assert.sameDeepMembers(await linesOf(byCurrency.USD.id), [
      [c, 'earning', 1800],
      [d, 'earning', 1800],
    ])
    for (const [leadId, currency] of [
      [c, 'USD'],
      [d, 'USD'],
      [e, 'EUR'],
      [f, 'EUR'],
    ]) {
      assert.equal(await payoutOf(leadId), byCurrency[currency].id)
    }
  })

  test('concurrent runs: exactly one creates the payout; a run while another holds the lock answers 409', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 2)
    await makeFinal(w.leads)
    const body = { label: w.label.slug, period_end: day(0) }
    const answers = await Promise.all([
      runPayouts(client, w.operator, body),
      runPayouts(client, w.operator, body),
      runPayouts(client, w.operator, body),
    ])
    for (const answer of answers) assert.include([202, 409], answer.status())
    assert.equal(
      answers
        .filter((answer) => answer.status() === 202)
        .reduce((sum, answer) => sum + answer.body().payouts, 0),
      1
    )
    const payouts = await payoutsOf(w.publisher.id)
    assert.lengthOf(payouts, 1)
    assert.lengthOf(await linesOf(payouts[0].id), 2)

    const lock = locks.createLock(PAYOUT_RUN_LOCK, '1 minute')
    assert.isTrue(await lock.acquireImmediately())
    try {
      const busy = await runPayouts(client, w.operator, body)
      busy.assertStatus(409)
      assert.equal(busy.body().code, 'payout_run_in_progress')
      // The clock skips its turn rather than waiting.
      assert.deepEqual(await runDuePayouts(new Date(Date.now() + 40 * DAY)), [])
    } finally {
      await lock.release()
    }
    ;(await runPayouts(client, w.operator, body)).assertStatus(202)
  })

  test('the settlement clock runs each label once its period has ended', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 1, { minimum: 0 })
    await makeFinal(w.leads, 10)
    // Weekly: at Monday 00:00 UTC after the sale the week is over.
    const monday = DateTime.utc().startOf('week').plus({ weeks: 1 })
    const runs = await runDuePayouts(monday.plus({ minutes: 1 }).toJSDate())
    const mine = runs.find((run) => run.label === w.label.slug)!
    assert.deepInclude(mine, { period_end: monday.minus({ days: 1 }).toISODate(), payouts: 1 })
    const [payout] = await payoutsOf(w.publisher.id)
    assert.equal(payout.period_end, mine.period_end)
    const row = await db.from('payout_runs').where('id', mine.id).firstOrFail()
    assert.deepInclude(row, { trigger: 'schedule', actor: 'system:settlement' })

    // Later ticks of the same week find the run done and ask nothing more of this label.
    const later = await runDuePayouts(monday.plus({ hours: 5 }).toJSDate())
    assert.isUndefined(later.find((run) => run.label === w.label.slug))
    assert.lengthOf(await payoutsOf(w.publisher.id), 1)
  })

  test('a run refuses what it cannot do, with field errors', async ({ client, assert }) => {
    const operator = await operatorKey()
    const cases: [Record<string, unknown>, string][] = [
      [{ period_end: day(1) }, 'period_end'],
      [{ period_end: '2026-02-30' }, 'period_end'],
      [{ period_end: 20261130 }, 'period_end'],
      [{ label: 'no-such-label-anywhere' }, 'label'],
      [{ label: 'Not A Slug' }, 'label'],
      [{ publisher: 'x' }, 'publisher'],
    ]
    for (const [body, field] of cases) {
      const answer = await runPayouts(client, operator, body)
      answer.assertStatus(422)
      assert.include(
        answer.body().errors.map((error: { field: string }) => error.field),
        field,
        JSON.stringify(body)
      )
    }
  })
})

test.group('Money / paying a payout', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('marked paid: the leads become paid_out (audit entry each), the ledger books it, the publisher is told', async ({
    client,
    assert,
    cleanup,
  }) => {
    const w = await world(client, 2)
    await makeFinal(w.leads)
    const hook = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(w.key)
      .json({ url: 'http://127.0.0.1:9/payouts', events: ['payout.processed'] })
    hook.assertStatus(201)
    cleanup(async () => {
      await WebhookEndpoint.query().where('id', hook.body().id).delete()
    })
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    const [payout] = await payoutsOf(w.publisher.id)

    const paid = await close(client, w.operator, payout.id, { reference: 'SEPA-2026-0042' })
    paid.assertStatus(200)
    ;(await conforms(client))('PayoutDetail', paid.body())
    assert.deepInclude(paid.body(), {
      id: payout.id,
      status: 'paid',
      reference: 'SEPA-2026-0042',
      amount_cents: 3600,
      lead_count: 2,
    })
    assert.isString(paid.body().paid_at)

    const publisher = await Publisher.findOrFail(w.publisher.id)
    const leads = await db.from(`${publisher.schemaName}.leads`).whereIn('id', w.leads)
    assert.deepEqual(
      leads.map((lead) => lead.status),
      ['paid_out', 'paid_out']
    )
    for (const leadId of w.leads) {
      const fact = await factsOf(leadId)
      assert.deepInclude(fact, { settlement: 'paid_out', status: 'paid_out', payout_id: payout.id })
      const entry = await db
        .from('audit.entries')
        .where('lead_id', leadId)
        .where('event', 'lead.paid_out')
        .firstOrFail()
      assert.match(entry.actor, /^api_key:/)
      assert.deepInclude(entry, { status_from: 'matched', status_to: 'paid_out' })
      const lookup = await client.get(`/v1/requests/${leadId}`).bearerToken(w.key)
      assert.deepEqual(lookup.body(), { id: leadId, status: 'paid_out' })
    }
    const verified = await client
      .get(`/v1/audit-logs/verify?lead_id=${w.leads[0]}`)
      .bearerToken(w.operator)
    assert.isTrue(verified.body().valid)

    const booked = await db
      .from('ledger_entries')
      .where('kind', 'payout')
      .where('reference', payout.id)
      .orderBy('id')
    assert.deepEqual(
      booked.map((row) => [row.account, Number(row.amount_cents)]),
      [
        [account.publisherPayable(w.publisher.id), 3600],
        [account.cash, -3600],
      ]
    )
    assert.equal(new Set(booked.map((row) => row.movement_id)).size, 1)

    const event = await db
      .from('outbox_events')
      .where('publisher_id', w.publisher.id)
      .where('type', 'payout.processed')
      .firstOrFail()
    assert.isNull(event.buyer_id)
    assert.deepInclude(event.payload.data, {
      kind: 'publisher_payout',
      payout_id: payout.id,
      publisher_id: w.publisher.id,
      amount_cents: 3600,
      currency: 'EUR',
      lead_count: 2,
      reference: 'SEPA-2026-0042',
      period_end: day(0),
    })
    const delivery = await db
      .from('webhook_deliveries')
      .where('event_id', event.id)
      .where('endpoint_id', hook.body().id)
      .first()
    assert.exists(delivery)

    const settlement = await client.get('/v1/settlement').bearerToken(w.key)
    assert.deepInclude(settlement.body(), { payable_cents: 0, paid_cents: 3600 })
    const logged = await AccessLogEntry.query()
      .where('action', 'payout.paid')
      .where('subject_id', payout.id)
      .firstOrFail()
    assert.equal(logged.publisherId, w.publisher.id)

    // Once paid, closed: neither paid again nor failed, and nothing more is booked.
    const twice = await close(client, w.operator, payout.id, { reference: 'again' })
    twice.assertStatus(409)
    assert.equal(twice.body().code, 'payout_closed')
    ;(await close(client, w.operator, payout.id, { reason: 'late' })).assertStatus(409)
    assert.lengthOf(
      await db.from('ledger_entries').where('kind', 'payout').where('reference', payout.id),
      2
    )
    assert.equal(
      (await db.from('payouts').where('id', payout.id).first()).reference,
      'SEPA-2026-0042'
    )
  })

  test('a sale returned while its payout was open stays returned when the payout is paid', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 2)
    await makeFinal(w.leads)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    const [payout] = await payoutsOf(w.publisher.id)
    await clawBack(w.leads[0])
    ;(await close(client, w.operator, payout.id, { reference: 'SEPA-3' })).assertStatus(200)
    assert.equal((await factsOf(w.leads[0])).settlement, 'returned')
    // It names the payout that paid it, so its clawback nets against the next one.
    assert.equal((await factsOf(w.leads[0])).payout_id, payout.id)
    assert.equal((await factsOf(w.leads[1])).settlement, 'paid_out')
    assert.lengthOf(
      await db.from('audit.entries').where('lead_id', w.leads[0]).where('event', 'lead.paid_out'),
      0
    )
    // It was paid with the payout; its clawback waits for the next one.
    assert.equal(await payableBalance(w.publisher.id), 1800)
  })

  test('marked failed: its sales are released and the next run pays them', async ({
    client,
    assert,
  }) => {
    const w = await world(client, 1)
    await makeFinal(w.leads, 3)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    const [payout] = await payoutsOf(w.publisher.id)
    const failed = await close(client, w.operator, payout.id, { reason: 'Account closed' })
    failed.assertStatus(200)
    assert.deepInclude(failed.body(), {
      status: 'failed',
      failure: 'Account closed',
      paid_at: null,
    })
    assert.isNull(await payoutOf(w.leads[0]))
    assert.equal((await factsOf(w.leads[0])).settlement, 'payable')
    assert.lengthOf(await db.from('ledger_entries').where('reference', payout.id), 0)
    ;(await close(client, w.operator, payout.id, { reference: 'x' })).assertStatus(409)

    // The failed period stays taken; the next period pays the released sale.
    const same = await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(-1) })
    assert.equal(same.body().payouts, 0)
    await runPayouts(client, w.operator, { label: w.label.slug, period_end: day(0) })
    const [, retry] = await payoutsOf(w.publisher.id)
    assert.deepEqual(await linesOf(retry.id), [[w.leads[0], 'earning', 1800]])
    assert.equal(await payoutOf(w.leads[0]), retry.id)
  })
})

test.group('Money / payouts: who sees what', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a publisher reads its own payouts and lines, never another’s, never a price; buyers see none', async ({
    client,
    assert,
  }) => {
    const a = await world(client, 1)
    const b = await world(client, 1)
    await makeFinal([...a.leads, ...b.leads])
    await runPayouts(client, a.operator, { label: a.label.slug, period_end: day(0) })
    await runPayouts(client, a.operator, { label: b.label.slug, period_end: day(0) })
    const [mine] = await payoutsOf(a.publisher.id)
    const [theirs] = await payoutsOf(b.publisher.id)
    const conform = await conforms(client)

    const list = await client.get('/v1/payouts').bearerToken(a.key)
    list.assertStatus(200)
    conform('PayoutPage', list.body())
    assert.deepEqual(
      list.body().data.map((payout: { id: string }) => payout.id),
      [mine.id]
    )
    assert.notProperty(list.body().data[0], 'lines')
    // Naming another publisher finds nothing of it.
    const foreignFilter = await client
      .get(`/v1/payouts?publisher_id=${b.publisher.id}`)
      .bearerToken(a.key)
    assert.deepEqual(foreignFilter.body().data, [])

    const one = await client.get(`/v1/payouts/${mine.id}`).bearerToken(a.key)
    one.assertStatus(200)
    conform('PayoutDetail', one.body())
    assert.deepEqual(one.body().lines, [
      { lead_id: a.leads[0], kind: 'earning', amount_cents: 1800 },
    ])
    // What the buyer paid (25.00) and the margin are not the publisher's to see.
    assert.isFalse(showsAmount(one.text(), 2500))
    assert.notInclude(one.text(), 'margin')
    assert.notInclude(one.text(), 'price')
    assert.notInclude(one.text(), a.buyer.id)

    ;(await client.get(`/v1/payouts/${theirs.id}`).bearerToken(a.key)).assertStatus(404)
    ;(
      await client.get('/v1/payouts/00000000-0000-7000-8000-000000000000').bearerToken(a.key)
    ).assertStatus(404)
    ;(await client.get('/v1/payouts/not-a-uuid').bearerToken(a.key)).assertStatus(404)
    const refused = await close(client, a.key, mine.id, { reference: 'self-paid' })
    refused.assertStatus(403)
    ;(await runPayouts(client, a.key, { label: a.label.slug })).assertStatus(403)
    assert.equal((await db.from('payouts').where('id', mine.id).first()).status, 'scheduled')

    // A sandbox key of the same publisher reads sandbox payouts only: none of these live ones.
    const { secret: sandbox } = await createKey({
      publisherId: a.publisher.id,
      environment: 'sandbox',
    })
    assert.deepEqual((await client.get('/v1/payouts').bearerToken(sandbox)).body().data, [])
    ;(await client.get(`/v1/payouts/${mine.id}`).bearerToken(sandbox)).assertStatus(404)

    // A buyer never sees a payout.
    ;(await client.get('/v1/payouts').bearerToken(a.buyerKey)).assertStatus(403)
    ;(await client.get(`/v1/payouts/${mine.id}`).bearerToken(a.buyerKey)).assertStatus(403)

    // The operator reads every publisher's, filtered.
    const byPublisher = await client
      .get(`/v1/payouts?publisher_id=${b.publisher.id}&status=scheduled`)
      .bearerToken(a.operator)
    assert.deepEqual(
      byPublisher.body().data.map((payout: { id: string }) => payout.id),
      [theirs.id]
    )
    const none = await client
      .get(`/v1/payouts?publisher_id=${b.publisher.id}&status=paid`)
      .bearerToken(a.operator)
    assert.deepEqual(none.body().data, [])
    ;(await client.get('/v1/payouts?status=sent').bearerToken(a.operator)).assertStatus(422)
    const missing = await client
      .post(`/v1/payouts/${mine.id}/mark-paid`)
      .bearerToken(a.operator)
      .json({})
    missing.assertStatus(422)
    assert.equal(missing.body().errors[0].field, 'reference')
  })
})
