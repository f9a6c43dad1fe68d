import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import routingConfig from '#config/routing'
import {
  SWEEP_SCHEDULER,
  closeRoutingQueues,
  enqueueRouting,
  routingQueue,
  startRoutingWorker,
  sweepRouting,
} from '#services/routing/routing_queue'
import { capPeriods } from '#services/routing/schedule'
import { createKey } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  eventually,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

async function leads(
  client: Parameters<typeof acceptedLead>[0],
  world: Parameters<typeof acceptedLead>[1],
  count: number
) {
  return Promise.all(Array.from({ length: count }, () => acceptedLead(client, world)))
}

function usage(ruleId: string) {
  return db.from('routing_rule_usage').where('rule_id', ruleId).orderBy('period')
}

test.group('Routing / caps', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('many leads at once never overshoot a daily cap', async ({ client, assert }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id], caps: { daily: 4 } })
    const ids = await leads(client, world, 16)

    const outcomes = await Promise.all(ids.map((id) => route(id)))
    assert.lengthOf(
      outcomes.filter((o) => o.outcome === 'matched'),
      4
    )
    assert.lengthOf(
      outcomes.filter((o) => o.outcome === 'unsold' && o.reason === 'cap_reached'),
      12
    )

    const facts = await db.from('lead_facts').whereIn('lead_id', ids)
    assert.lengthOf(
      facts.filter((f) => f.routing_rule_id === rule.id && f.status === 'matched'),
      4
    )
    assert.lengthOf(
      await db.from('outbox_events').whereIn('lead_id', ids).where('type', 'match.found'),
      4
    )
    const periods = capPeriods('UTC', new Date())
    assert.deepEqual(
      (await usage(rule.id)).map((row) => [row.period, row.count]),
      [[periods.daily.key, 4]]
    )
  })

  test('a full monthly cap gives back the daily unit it took', async ({ client, assert }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      caps: { daily: 50, monthly: 3 },
    })
    const ids = await leads(client, world, 10)

    const outcomes = await Promise.all(ids.map((id) => route(id)))
    assert.lengthOf(
      outcomes.filter((o) => o.outcome === 'matched'),
      3
    )
    const periods = capPeriods('UTC', new Date())
    assert.deepEqual(
      (await usage(rule.id)).map((row) => [row.period, row.count]),
      [
        [periods.daily.key, 3],
        [periods.monthly.key, 3],
      ]
    )
  })

  test('a capped rule falls through to the next one; the lead is not lost', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const capped = await createRule({
      publisherIds: [world.publisher.id],
      priority: 5,
      caps: { daily: 2 },
    })
    const fallback = await createRule({ publisherIds: [world.publisher.id], priority: 1 })
    const outcomes = await Promise.all((await leads(client, world, 8)).map((id) => route(id)))
    const byRule = (id: string) =>
      outcomes.filter((o) => o.outcome === 'matched' && o.ruleId === id).length
    assert.equal(byRule(capped.id), 2)
    assert.equal(byRule(fallback.id), 6)
  })

  test('caps count the day of the rule’s time zone', async ({ client, assert }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      caps: { daily: 1 },
      schedule: {
        timezone: 'Pacific/Auckland',
        windows: [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '24:00' },
        ],
      },
    })
    const [first, second, third] = await leads(client, world, 3)
    // 10:30 UTC is 23:30 on Tuesday in Auckland; 11:30 UTC the same UTC day is already Wednesday there.
    assert.include(await route(first, { now: new Date('2027-01-05T10:30:00Z') }), {
      outcome: 'matched',
    })
    assert.include(await route(second, { now: new Date('2027-01-05T11:30:00Z') }), {
      outcome: 'matched',
    })
    assert.include(await route(third, { now: new Date('2027-01-05T12:00:00Z') }), {
      outcome: 'unsold',
      reason: 'cap_reached',
    })
    assert.deepEqual(
      (await usage(rule.id)).map((row) => [row.period, row.count]),
      [
        ['day:2027-01-05', 1],
        ['day:2027-01-06', 1],
      ]
    )
  })

  test('a cap set on a rule that already sold today counts those sales', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id] })
    for (const id of await leads(client, world, 2))
      assert.include(await route(id), { outcome: 'matched' })

    rule.caps = { daily: 3 }
    await rule.save()
    const outcomes = await Promise.all((await leads(client, world, 4)).map((id) => route(id)))
    assert.lengthOf(
      outcomes.filter((o) => o.outcome === 'matched'),
      1
    )
    assert.equal((await usage(rule.id))[0].count, 3)
  })
})

test.group('Routing / queue', (group) => {
  const prefix = `${routingConfig.prefix}-queue-spec`
  group.each.setup(async () => {
    await disableUnscopedRules()
    // Jobs left by an earlier run under this prefix are not this test's.
    await routingQueue(prefix).obliterate({ force: true })
  })
  group.teardown(() => closeRoutingQueues())

  test('the worker routes queued leads, concurrently, without overshooting a cap', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id], caps: { daily: 3 } })
    const ids = await leads(client, world, 10)

    const stop = await startRoutingWorker({ prefix, concurrency: 8, sweep: false })
    try {
      assert.isTrue(await enqueueRouting(ids, { prefix }))
      // Queued twice (intake and the sweeper, say): one job per lead.
      assert.isTrue(await enqueueRouting(ids.slice(0, 5), { prefix }))
      const facts = await eventually(async () => {
        const rows = await db.from('lead_facts').whereIn('lead_id', ids).whereNotNull('routed_at')
        return rows.length === ids.length && rows
      })
      assert.lengthOf(
        facts.filter((f) => f.status === 'matched' && f.routing_rule_id === rule.id),
        3
      )
      assert.lengthOf(
        facts.filter((f) => f.status === 'accepted' && f.unsold_reason === 'cap_reached'),
        7
      )
      assert.lengthOf(
        await db.from('outbox_events').whereIn('lead_id', ids).where('type', 'match.found'),
        3
      )
      assert.lengthOf(
        await db.from('audit.entries').whereIn('lead_id', ids).where('event', 'lead.delivered'),
        3
      )
    } finally {
      await stop()
    }
  })

  test('a sandbox lead on the queue meets only sandbox rules, a live one only live rules', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    // The live rule ranks first for both: a lead that crossed over would land there.
    const live = await createRule({ publisherIds: [world.publisher.id], priority: 10 })
    const sandboxRule = await createRule({
      publisherIds: [world.publisher.id],
      environment: 'sandbox',
    })
    const sandbox = await createKey({ publisherId: world.publisher.id, environment: 'sandbox' })
    const sandboxLead = await acceptedLead(client, {
      publisher: world.publisher,
      key: sandbox.secret,
    })
    const liveLead = await acceptedLead(client, world)

    const stop = await startRoutingWorker({ prefix, concurrency: 2, sweep: false })
    try {
      await enqueueRouting([sandboxLead, liveLead], { prefix })
      await eventually(async () => {
        const [one, other] = [await factsOf(liveLead), await factsOf(sandboxLead)]
        return one.status === 'matched' && other.status === 'matched'
      })
      assert.include(await factsOf(liveLead), { routing_rule_id: live.id, buyer_id: live.buyerId })
      assert.include(await factsOf(sandboxLead), {
        routing_rule_id: sandboxRule.id,
        buyer_id: sandboxRule.buyerId,
        environment: 'sandbox',
      })
    } finally {
      await stop()
    }
  })
})

test.group('Routing / sweeper on the queue', (group) => {
  const prefix = `${routingConfig.prefix}-sweep-spec`
  group.each.setup(async () => {
    await disableUnscopedRules()
    await routingQueue(prefix).obliterate({ force: true })
  })
  group.teardown(() => closeRoutingQueues())

  test('a sweep re-queues a lead whose job was lost and the worker sells it; workers keep one sweep schedule', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id] })
    const lost = await acceptedLead(client, world)
    // Earlier specs' unsold leads (thousands, live and sandbox, in a whole run) would be due too,
    // and a sweep takes the oldest first: mark them tried in the future, so this lead is the one due.
    await db
      .from('lead_facts')
      .where('status', 'accepted')
      .whereNull('buyer_id')
      .whereNot('lead_id', lost)
      .update({ routed_at: new Date(Date.now() + 3_600_000) })

    const stop = await startRoutingWorker({ prefix, concurrency: 8, sweep: true })
    const second = await startRoutingWorker({ prefix, concurrency: 1, sweep: true })
    try {
      const schedulers = await routingQueue(prefix).getJobSchedulers()
      assert.deepEqual(
        schedulers.map((s) => [s.key, s.every]),
        [[SWEEP_SCHEDULER, routingConfig.sweepIntervalSeconds * 1000]]
      )

      const { requeued } = await sweepRouting({ prefix, now: new Date(Date.now() + 60_000) })
      assert.isAtLeast(requeued, 1)
      await eventually(async () => (await factsOf(lost)).status === 'matched', 20_000)
      assert.equal((await factsOf(lost)).routing_rule_id, rule.id)
    } finally {
      await stop()
      await second()
    }
  })

  test('a Redis that comes back empty gets the sweep schedule back without a worker restart', async ({
    assert,
  }) => {
    const stop = await startRoutingWorker({
      prefix,
      concurrency: 1,
      sweep: true,
      scheduleCheckMs: 100,
    })
    try {
      assert.lengthOf(await routingQueue(prefix).getJobSchedulers(), 1)
      // What a restarted, empty Redis holds for this queue: nothing.
      await routingQueue(prefix).obliterate({ force: true })
      assert.lengthOf(await routingQueue(prefix).getJobSchedulers(), 0)
      const schedulers = await eventually(async () => {
        const found = await routingQueue(prefix).getJobSchedulers()
        return found.length > 0 ? found : null
      }, 5_000)
      assert.deepEqual(
        schedulers.map((s) => [s.key, s.every]),
        [[SWEEP_SCHEDULER, routingConfig.sweepIntervalSeconds * 1000]]
      )
    } finally {
      await stop()
    }
  })
})
