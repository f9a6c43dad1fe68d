import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createBuyer, createKey, operatorKey, unique } from '#tests/support/fixtures'
import { REFUSING_DOMAIN, mailTo } from '#tests/support/mailbox'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  eventually,
  factsOf,
  route,
} from '#tests/functional/routing/routing_support'
import {
  attemptsOf,
  createDestination,
  salesOf,
  sell,
  sellingWorld,
  usageOf,
} from '#tests/functional/selling/selling_support'
import { startSaleWorker } from '#services/selling/sale_worker'
import TenancyService from '#services/platform/tenancy_service'

const schemaOf = (publisherId: string) => TenancyService.schemaNameFor(publisherId)

test.group('Selling / the sale', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a lead sold by webhook is one sale and one accepted attempt; each party reads its part', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const rule = await createRule({
      labelIds: [world.label.id],
      priceCents: 2000,
      payoutCents: 1200,
    })
    const leadId = await acceptedLead(client, world)

    const outcome = await sell(leadId)
    assert.deepEqual(outcome, {
      outcome: 'matched',
      leadId,
      ruleId: rule.id,
      buyerId: rule.buyerId,
    })
    const fact = await factsOf(leadId)
    assert.include(fact, { status: 'matched', sale_status: 'sold', sale_attempts: 1 })
    assert.isNull(fact.sale_started_at)
    const sales = await salesOf(leadId)
    assert.lengthOf(sales, 1)
    assert.include(sales[0], {
      buyer_id: rule.buyerId,
      price_cents: 2000,
      payout_cents: 1200,
      exclusive: true,
    })
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.lengthOf(attempts, 1)
    assert.include(attempts[0], { outcome: 'accepted', destination_kind: 'webhook', kind: 'post' })

    const operator = await client.get(`/v1/leads/${leadId}/sale`).bearerToken(await operatorKey())
    operator.assertStatus(200)
    assert.equal(operator.body().status, 'sold')
    assert.include(operator.body().sales[0], {
      buyer_id: rule.buyerId,
      price_cents: 2000,
      payout_cents: 1200,
    })
    assert.include(operator.body().attempts[0], { outcome: 'accepted', buyer_id: rule.buyerId })

    const buyerKey = (await createKey({ buyerId: rule.buyerId })).secret
    const buyer = await client.get(`/v1/leads/${leadId}/sale`).bearerToken(buyerKey)
    buyer.assertStatus(200)
    assert.equal(buyer.body().sales[0].price_cents, 2000)
    assert.notProperty(buyer.body().sales[0], 'payout_cents')
    assert.notProperty(buyer.body().sales[0], 'routing_rule_id')

    const publisher = await client.get(`/v1/leads/${leadId}/sale`).bearerToken(world.key)
    publisher.assertStatus(200)
    assert.deepEqual(publisher.body(), { status: 'sold', payout_cents: 1200 })

    // Another buyer, and a buyer that did not buy it, do not learn the lead exists.
    const stranger = (await createKey({ buyerId: (await createBuyer()).id })).secret
    ;(await client.get(`/v1/leads/${leadId}/sale`).bearerToken(stranger)).assertStatus(404)
  })

  test('an e-mail destination gets the lead in the label’s brand; the mail server taking it is the sale', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const to = `${unique('leads')}@buyer.example`
    const destination = await createDestination(buyer.id, 'email', { email: { to } })
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: destination.id,
      priceCents: 1800,
    })
    const leadId = await acceptedLead(client, world, { contact: { name: 'Piet de Vries' } })

    const outcome = await sell(leadId)
    assert.deepEqual(outcome, { outcome: 'matched', leadId, ruleId: rule.id, buyerId: buyer.id })
    const [mail] = mailTo(to)
    assert.exists(mail)
    // The subject names the label only; the body carries the lead.
    assert.match(mail.parts.headers, new RegExp(`Subject: New lead from ${world.label.name}`))
    assert.include(mail.parts.text, 'Piet de Vries')
    assert.include(mail.parts.html, 'Piet de Vries')
    assert.include(mail.parts.text, `/buyer/leads/${leadId}`)
    const [attempt] = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.include(attempt, {
      outcome: 'accepted',
      destination_kind: 'email',
      destination_id: destination.id,
    })
    assert.isNumber(attempt.duration_ms)
    const [sale] = await salesOf(leadId)
    assert.include(sale, { buyer_id: buyer.id, destination_id: destination.id, price_cents: 1800 })
  })

  test('a refused e-mail falls through to the next buyer, and its cap unit is given back', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const first = await createBuyer()
    const refusing = await createDestination(first.id, 'email', {
      email: { to: `nobody@${REFUSING_DOMAIN}` },
    })
    const firstRule = await createRule({
      buyerId: first.id,
      labelIds: [world.label.id],
      destinationId: refusing.id,
      priority: 10,
      caps: { daily: 5, daily_spend_cents: 10_000 },
    })
    const secondRule = await createRule({ labelIds: [world.label.id], priority: 1 })
    const leadId = await acceptedLead(client, world)

    const outcome = await sell(leadId)
    assert.deepEqual(outcome, {
      outcome: 'matched',
      leadId,
      ruleId: secondRule.id,
      buyerId: secondRule.buyerId,
    })
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.deepEqual(
      attempts.map((attempt) => [attempt.routing_rule_id, attempt.outcome, attempt.reason]),
      [
        [firstRule.id, 'error', 'email_not_accepted'],
        [secondRule.id, 'accepted', null],
      ]
    )
    // What the refused post reserved is free again: nothing of the first rule was sold.
    assert.deepEqual(
      (await usageOf(firstRule.id)).map((row) => row.count),
      [0, 0]
    )
    const sales = await salesOf(leadId)
    assert.deepEqual(
      sales.map((sale) => sale.buyer_id),
      [secondRule.buyerId]
    )
    assert.include(await factsOf(leadId), {
      sale_status: 'sold',
      buyer_id: secondRule.buyerId,
      sale_attempts: 2,
    })
  })

  test('when every buyer fails the lead is unsold (rejected), and a buyer that refused is not asked again', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const refusing = await createDestination(buyer.id, 'email', {
      email: { to: `nobody@${REFUSING_DOMAIN}` },
    })
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: refusing.id,
    })
    const leadId = await acceptedLead(client, world)

    assert.deepEqual(await sell(leadId), { outcome: 'unsold', leadId, reason: 'rejected' })
    assert.include(await factsOf(leadId), {
      status: 'accepted',
      sale_status: 'unsold',
      unsold_reason: 'rejected',
    })
    assert.isNull((await factsOf(leadId)).sale_started_at)

    // A later try (the sweeper's) offers it again: an error may clear, so the buyer is asked once more.
    assert.deepEqual(await sell(leadId), { outcome: 'unsold', leadId, reason: 'rejected' })
    assert.lengthOf(await attemptsOf(schemaOf(world.publisher.id), leadId), 2)

    // A buyer that answered "rejected" is never offered the lead again.
    await db
      .from(`${schemaOf(world.publisher.id)}.sale_attempts`)
      .where('lead_id', leadId)
      .update({ outcome: 'rejected' })
    assert.deepEqual(await sell(leadId), { outcome: 'unsold', leadId, reason: 'rejected' })
    assert.lengthOf(await attemptsOf(schemaOf(world.publisher.id), leadId), 2)
    void rule
  })

  test('shared: two shared buyers worth more than the exclusive one both buy the lead', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ max_sales: 2 })
    const exclusive = await createRule({
      labelIds: [world.label.id],
      priceCents: 1000,
      payoutCents: 600,
      priority: 5,
    })
    const sharedA = await createRule({
      labelIds: [world.label.id],
      priceCents: 700,
      payoutCents: 400,
      exclusive: false,
    })
    const sharedB = await createRule({
      labelIds: [world.label.id],
      priceCents: 600,
      payoutCents: 300,
      exclusive: false,
    })
    const leadId = await acceptedLead(client, world)

    const outcome = await sell(leadId)
    assert.equal(outcome.outcome, 'matched')
    const sales = await salesOf(leadId)
    assert.sameMembers(
      sales.map((sale) => sale.buyer_id),
      [sharedA.buyerId, sharedB.buyerId]
    )
    assert.isTrue(sales.every((sale) => sale.exclusive === false))
    assert.include(await factsOf(leadId), {
      status: 'matched',
      price_cents: 1300,
      payout_cents: 700,
    })
    // Each sale books its own money: the ledger has both buyers owing their price.
    const owed = await db
      .from('ledger_entries')
      .where('lead_id', leadId)
      .where('kind', 'sale')
      .whereLike('account', 'buyer:%')
      .select('buyer_id', 'amount_cents')
    assert.sameDeepMembers(
      owed.map((row) => [row.buyer_id, Number(row.amount_cents)]),
      [
        [sharedA.buyerId, 700],
        [sharedB.buyerId, 600],
      ]
    )
    // Both buyers read the lead they bought; the exclusive buyer does not.
    for (const buyerId of [sharedA.buyerId, sharedB.buyerId]) {
      const key = (await createKey({ buyerId })).secret
      ;(await client.get(`/v1/leads/${leadId}`).bearerToken(key)).assertStatus(200)
    }
    const excluded = (await createKey({ buyerId: exclusive.buyerId })).secret
    ;(await client.get(`/v1/leads/${leadId}`).bearerToken(excluded)).assertStatus(404)
  })

  test('shared: an exclusive buyer worth more than the shared ones buys alone', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ max_sales: 3 })
    const exclusive = await createRule({
      labelIds: [world.label.id],
      priceCents: 2000,
      payoutCents: 1000,
    })
    await createRule({
      labelIds: [world.label.id],
      priceCents: 700,
      exclusive: false,
      payoutCents: 100,
    })
    await createRule({
      labelIds: [world.label.id],
      priceCents: 600,
      exclusive: false,
      payoutCents: 100,
    })
    const leadId = await acceptedLead(client, world)

    assert.deepEqual(await sell(leadId), {
      outcome: 'matched',
      leadId,
      ruleId: exclusive.id,
      buyerId: exclusive.buyerId,
    })
    const sales = await salesOf(leadId)
    assert.deepEqual(
      sales.map((sale) => [sale.buyer_id, sale.exclusive]),
      [[exclusive.buyerId, true]]
    )
  })

  test('a post whose worker died is closed when its lease lapses, its units given back, and the lead moves on', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const mail = await createDestination(buyer.id, 'email', {
      email: { to: `${unique('x')}@buyer.example` },
    })
    const stuck = await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: mail.id,
      priority: 10,
      caps: { hourly: 3 },
    })
    const next = await createRule({ labelIds: [world.label.id], priority: 1 })
    const leadId = await acceptedLead(client, world)

    // Routing asks for the post; its worker "dies" before answering.
    const offered = await route(leadId)
    assert.equal(offered.outcome, 'offer')
    assert.include(await factsOf(leadId), { sale_status: 'selling' })
    assert.deepEqual(
      (await usageOf(stuck.id)).map((row) => row.count),
      [1]
    )
    // While the lease holds, another try leaves the lead alone.
    assert.deepEqual(await route(leadId), { outcome: 'skipped', leadId, reason: 'in_progress' })

    // Its lease is its 10 s timeout and 15 s more; the label's 30 s deadline has not passed.
    const later = new Date(Date.now() + 27_000)
    assert.deepEqual(await sell(leadId, { now: later }), {
      outcome: 'matched',
      leadId,
      ruleId: next.id,
      buyerId: next.buyerId,
    })
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.deepEqual(
      attempts.map((attempt) => [attempt.routing_rule_id, attempt.outcome, attempt.reason]),
      [
        [stuck.id, 'error', 'interrupted'],
        [next.id, 'accepted', null],
      ]
    )
    assert.deepEqual(
      (await usageOf(stuck.id)).map((row) => row.count),
      [0]
    )
  })
})

test.group('Selling / the deadline', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('past the label’s sale deadline the lead stops falling through and is unsold', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld({ deadline_seconds: 2 })
    const buyer = await createBuyer()
    const refusing = await createDestination(buyer.id, 'email', {
      email: { to: `nobody@${REFUSING_DOMAIN}` },
    })
    await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: refusing.id,
      priority: 9,
    })
    const fallback = await createRule({ labelIds: [world.label.id], priority: 1 })
    const leadId = await acceptedLead(client, world)
    const { default: app } = await import('@adonisjs/core/services/app')
    const { default: SaleRunner } = await import('#services/selling/sale_runner')
    const { default: RoutingService } = await import('#services/routing/routing_service')
    const runner = await app.container.make(SaleRunner)
    const routing = await app.container.make(RoutingService)

    const started = new Date()
    const offered = await routing.route(leadId, { now: started })
    assert.equal(offered.outcome, 'offer')
    if (offered.outcome !== 'offer') return
    const answer = await runner.post(offered.offer)
    // The answer comes in three seconds after the sale began: the fallback is never offered.
    const settled = await routing.settle(offered.offer, answer, {
      now: new Date(started.getTime() + 3_000),
    })
    assert.deepEqual(settled, { outcome: 'unsold', leadId, reason: 'deadline' })
    assert.include(await factsOf(leadId), { sale_status: 'unsold', unsold_reason: 'deadline' })
    const attempts = await attemptsOf(schemaOf(world.publisher.id), leadId)
    assert.notInclude(
      attempts.map((attempt) => attempt.routing_rule_id),
      fallback.id
    )
  })
})

test.group('Selling / the publisher waits for the sale', (group) => {
  let stop: () => Promise<void>
  group.setup(async () => {
    stop = await startSaleWorker({ sweep: false })
    return () => stop()
  })
  group.each.setup(() => disableUnscopedRules())

  test('Prefer: wait answers once the sale is decided, with the publisher’s own payout only', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const mail = await createDestination(buyer.id, 'email', {
      email: { to: `${unique('w')}@buyer.example` },
    })
    await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: mail.id,
      priceCents: 2500,
      payoutCents: 1400,
    })
    const { leadBody } = await import('#tests/support/fixtures')

    const response = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .header('Prefer', 'respond-async, wait=10')
      .json(leadBody(world.publisher.slug))
    response.assertStatus(201)
    response.assertHeader('preference-applied', 'wait=10')
    assert.deepEqual(response.body().sale, { status: 'sold', payout_cents: 1400 })
    assert.notProperty(response.body(), 'buyer_id')
    assert.notInclude(response.text(), buyer.id)
    assert.notInclude(response.text(), '2500')
  })

  test('without Prefer the answer says pending at once; a wait beyond 30 s is held to 30', async ({
    client,
    assert,
  }) => {
    const world = await sellingWorld()
    const { leadBody } = await import('#tests/support/fixtures')
    const plain = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug))
    plain.assertStatus(201)
    assert.deepEqual(plain.body().sale, { status: 'pending' })
    assert.isUndefined(plain.header('preference-applied'))

    // No rule takes this label's leads: the sale ends unsold at once, long before 30 s.
    const waited = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .header('Prefer', 'wait=600')
      .json(leadBody(world.publisher.slug))
    waited.assertStatus(201)
    waited.assertHeader('preference-applied', 'wait=30')
    assert.deepEqual(waited.body().sale, { status: 'unsold' })
    await eventually(async () => (await factsOf(waited.body().id)).sale_status === 'unsold')
  })

  test('a rejected lead answers unsold without waiting', async ({ client, assert }) => {
    const world = await sellingWorld()
    const { leadBody } = await import('#tests/support/fixtures')
    const response = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .header('Prefer', 'wait=5')
      .json(leadBody(world.publisher.slug, { consent: { given: false } }))
    response.assertStatus(422)
    assert.deepEqual(response.body().sale, { status: 'unsold' })
    assert.isUndefined(response.header('preference-applied'))
  })
})
