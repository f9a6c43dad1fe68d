import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import RoutingRule from '#models/routing_rule'
import RoutingSweeper from '#services/routing/sweeper'
import { queuedForRouting } from '#tests/support/routing_jobs'
import { createBuyer, createKey, operatorKey } from '#tests/support/fixtures'
import {
  Receiver,
  compressWebhookClock,
  eventually,
  sleep,
  startRuntime,
} from '#tests/support/webhooks'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/**
 * The sandbox routes like live (docs/sandbox.md): a sandbox lead meets the sandbox's rules, its
 * match.found goes to the buyer's sandbox endpoints, its money to `sandbox:` ledger accounts;
 * nothing crosses between sandbox and live, in either direction.
 */

const ledgerOf = (leadId: string) => db.from('ledger_entries').where('lead_id', leadId)

/** A publisher with a sandbox key and a live one. */
async function bothKeys() {
  const world = await routingPublisher(undefined, 'sandbox')
  const live = await createKey({ publisherId: world.publisher.id })
  return { publisher: world.publisher, sandboxKey: world.key, liveKey: live.secret }
}

test.group('Routing / the sandbox', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a sandbox lead is sold by a sandbox rule; its match.found reaches the buyer’s sandbox endpoint, never its live one', async ({
    client,
    assert,
    cleanup,
  }) => {
    const restore = compressWebhookClock()
    const { publisher, sandboxKey, liveKey } = await bothKeys()
    const buyer = await createBuyer()
    const rule = await createRule({
      buyerId: buyer.id,
      publisherIds: [publisher.id],
      priceCents: 2500,
      payoutCents: 1800,
      environment: 'sandbox',
    })
    const receivers = { sandbox: await Receiver.start(), live: await Receiver.start() }
    for (const environment of ['sandbox', 'live'] as const) {
      const { secret } = await createKey({ buyerId: buyer.id, environment })
      const endpoint = await client
        .post('/v1/webhook-endpoints')
        .bearerToken(secret)
        .json({ url: receivers[environment].url, events: ['match.found'] })
      endpoint.assertStatus(201)
    }
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await WebhookEndpoint.query().where('buyer_id', buyer.id).delete()
      for (const receiver of Object.values(receivers)) await receiver.close()
      restore()
    })
    const settlementBefore = await client.get('/v1/settlement').bearerToken(liveKey)
    settlementBefore.assertStatus(200)

    const leadId = await acceptedLead(client, { publisher, key: sandboxKey })
    // Intake queues a sandbox lead for routing like a live one (it answers before the job is in Redis).
    await eventually(async () => (await queuedForRouting()).has(leadId), 'the sandbox lead queued')
    assert.deepEqual(await route(leadId), {
      outcome: 'matched',
      leadId,
      ruleId: rule.id,
      buyerId: buyer.id,
    })

    assert.include(await factsOf(leadId), {
      status: 'matched',
      environment: 'sandbox',
      buyer_id: buyer.id,
      routing_rule_id: rule.id,
      price_cents: 2500,
      payout_cents: 1800,
    })
    const delivered = await db
      .from('audit.entries')
      .where('lead_id', leadId)
      .where('event', 'lead.delivered')
      .firstOrFail()
    assert.include(delivered, { actor: `rule:${rule.id}`, environment: 'sandbox' })
    const event = await db
      .from('outbox_events')
      .where('lead_id', leadId)
      .where('type', 'match.found')
      .firstOrFail()
    assert.include(event, { environment: 'sandbox', buyer_id: buyer.id })

    const [heard] = await eventually(
      () => receivers.sandbox.answered.length > 0 && receivers.sandbox.answered,
      'the match.found on the sandbox endpoint'
    )
    assert.equal(heard.json.type, 'match.found')
    assert.equal(heard.json.event_id, event.id)
    assert.include(heard.json.data, { lead_id: leadId, buyer_id: buyer.id, price_cents: 2500 })
    await sleep(500)
    assert.lengthOf(receivers.live.received, 0, 'the live endpoint heard nothing')

    // The sale's money is all on sandbox accounts; the publisher's live settlement is as it was.
    const rows = await ledgerOf(leadId)
    assert.isAbove(rows.length, 0)
    for (const row of rows) assert.match(row.account, /^sandbox:/, row.account)
    const settlementAfter = await client.get('/v1/settlement').bearerToken(liveKey)
    assert.deepEqual(settlementAfter.body(), settlementBefore.body())
  }).timeout(30_000)

  test('a sandbox lead never meets a live rule, and a live lead never meets a sandbox rule', async ({
    client,
    assert,
  }) => {
    // Each publisher has only a rule of the other environment, for the same buyer.
    const buyer = await createBuyer()
    const onlyLive = await bothKeys()
    await createRule({ buyerId: buyer.id, publisherIds: [onlyLive.publisher.id] })
    const onlySandbox = await bothKeys()
    await createRule({
      buyerId: buyer.id,
      publisherIds: [onlySandbox.publisher.id],
      environment: 'sandbox',
    })

    const sandboxLead = await acceptedLead(client, {
      publisher: onlyLive.publisher,
      key: onlyLive.sandboxKey,
    })
    const liveLead = await acceptedLead(client, {
      publisher: onlySandbox.publisher,
      key: onlySandbox.liveKey,
    })
    for (const leadId of [sandboxLead, liveLead]) {
      assert.deepEqual(await route(leadId), { outcome: 'unsold', leadId, reason: 'no_rule' })
      assert.include(await factsOf(leadId), { status: 'accepted', buyer_id: null })
      assert.lengthOf(await ledgerOf(leadId), 0)
      assert.lengthOf(
        await db.from('outbox_events').where('lead_id', leadId).where('type', 'match.found'),
        0
      )
    }

    // Each environment's rule does sell its own leads.
    const ownSandbox = await acceptedLead(client, {
      publisher: onlySandbox.publisher,
      key: onlySandbox.sandboxKey,
    })
    const ownLive = await acceptedLead(client, {
      publisher: onlyLive.publisher,
      key: onlyLive.liveKey,
    })
    assert.include(await route(ownSandbox), { outcome: 'matched' })
    assert.include(await route(ownLive), { outcome: 'matched' })
    for (const row of await ledgerOf(ownLive)) assert.notMatch(row.account, /^sandbox:/)
  })

  test('caps are counted per rule, so the sandbox never uses up a live cap', async ({
    client,
    assert,
  }) => {
    const { publisher, sandboxKey, liveKey } = await bothKeys()
    const buyer = await createBuyer()
    const liveRule = await createRule({
      buyerId: buyer.id,
      publisherIds: [publisher.id],
      caps: { daily: 1 },
    })
    const sandboxRule = await createRule({
      buyerId: buyer.id,
      publisherIds: [publisher.id],
      caps: { daily: 1 },
      environment: 'sandbox',
    })

    const sandboxLeads = [
      await acceptedLead(client, { publisher, key: sandboxKey }),
      await acceptedLead(client, { publisher, key: sandboxKey }),
    ]
    assert.include(await route(sandboxLeads[0]), { outcome: 'matched', ruleId: sandboxRule.id })
    assert.include(await route(sandboxLeads[1]), { outcome: 'unsold', reason: 'cap_reached' })

    const liveLead = await acceptedLead(client, { publisher, key: liveKey })
    assert.include(await route(liveLead), { outcome: 'matched', ruleId: liveRule.id })
    const usage = await db
      .from('routing_rule_usage')
      .whereIn('rule_id', [liveRule.id, sandboxRule.id])
      .select('rule_id', 'count')
    assert.sameDeepMembers(usage, [
      { rule_id: liveRule.id, count: 1 },
      { rule_id: sandboxRule.id, count: 1 },
    ])
  })

  test('the sweeper offers an unsold sandbox lead again once a sandbox rule appears, not for a live one', async ({
    client,
    assert,
  }) => {
    const sweeper = await app.container.make(RoutingSweeper)
    const due = () => sweeper.dueLeads({ limit: 1_000_000 })
    const { publisher, sandboxKey } = await bothKeys()
    const leadId = await acceptedLead(client, { publisher, key: sandboxKey })
    assert.include(await route(leadId), { outcome: 'unsold', reason: 'no_rule' })
    assert.notInclude(await due(), leadId)
    // Every rule made below is a change after the try, to the millisecond.
    await sleep(20)

    await createRule({ publisherIds: [publisher.id] })
    assert.notInclude(await due(), leadId, 'a live rule is no reason to try a sandbox lead')

    const rule = await createRule({ publisherIds: [publisher.id], environment: 'sandbox' })
    assert.include(await due(), leadId)
    assert.include(await route(leadId), { outcome: 'matched', ruleId: rule.id })
    assert.notInclude(await due(), leadId)
  })
})

test.group('Routing rules / environment', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a rule’s environment round-trips and filters the list; live unless asked', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const buyer = await createBuyer()
    const body = { buyer_id: buyer.id, price_cents: 2500, payout_cents: 1500, currency: 'EUR' }
    const sandbox = await client
      .post('/v1/routing-rules')
      .bearerToken(key)
      .json({ ...body, environment: 'sandbox' })
    sandbox.assertStatus(201)
    assert.equal(sandbox.body().environment, 'sandbox')
    const live = await client.post('/v1/routing-rules').bearerToken(key).json(body)
    live.assertStatus(201)
    assert.equal(live.body().environment, 'live')

    const read = await client.get(`/v1/routing-rules/${sandbox.body().id}`).bearerToken(key)
    assert.equal(read.body().environment, 'sandbox')
    assert.equal((await RoutingRule.findOrFail(sandbox.body().id)).environment, 'sandbox')

    const listed = async (environment: string) =>
      (
        await client
          .get('/v1/routing-rules')
          .bearerToken(key)
          .qs({ buyer_id: buyer.id, environment })
      )
        .body()
        .data.map((rule: { id: string }) => rule.id)
    assert.deepEqual(await listed('sandbox'), [sandbox.body().id])
    assert.deepEqual(await listed('live'), [live.body().id])
    const bad = await client
      .get('/v1/routing-rules')
      .bearerToken(key)
      .qs({ environment: 'staging' })
    bad.assertStatus(422)
    assert.equal(bad.body().errors[0].field, 'environment')
  })

  test('a PATCH may repeat the environment but never change it; a bad value is refused', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const rule = await createRule({ environment: 'sandbox', priceCents: 1500 })
    const before = await db.from('routing_rules').where('id', rule.id).firstOrFail()

    for (const patch of [{ environment: 'live' }, { environment: 'live', price_cents: 9900 }]) {
      const moved = await client.patch(`/v1/routing-rules/${rule.id}`).bearerToken(key).json(patch)
      moved.assertStatus(422)
      assert.match(String(moved.header('content-type')), /^application\/problem\+json/)
      assert.deepInclude(moved.body().errors, {
        field: 'environment',
        code: 'environment_fixed',
        message:
          'This rule sells sandbox leads and always will; create another rule for live leads.',
      })
      assert.deepEqual(await db.from('routing_rules').where('id', rule.id).firstOrFail(), before)
    }

    const bad = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({ environment: 'staging' })
    bad.assertStatus(422)
    assert.equal(bad.body().errors[0].field, 'environment')
    const badCreate = await client.post('/v1/routing-rules').bearerToken(key).json({
      buyer_id: rule.buyerId,
      price_cents: 100,
      payout_cents: 50,
      currency: 'EUR',
      environment: 'Sandbox',
    })
    badCreate.assertStatus(422)
    assert.equal(badCreate.body().errors[0].field, 'environment')
    assert.deepEqual(await db.from('routing_rules').where('id', rule.id).firstOrFail(), before)

    const repeated = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({ environment: 'sandbox', price_cents: 1700 })
    repeated.assertStatus(200)
    assert.include(repeated.body(), { environment: 'sandbox', price_cents: 1700 })
  })
})
