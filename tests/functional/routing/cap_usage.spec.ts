import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { capUsage } from '#services/routing/caps'
import { capPeriods } from '#services/routing/schedule'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

test.group('Routing / cap usage for people to read', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('reads the counters of the current day and month, in the rule zone', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      caps: { daily: 5, monthly: 100 },
      schedule: {
        timezone: 'Pacific/Auckland',
        windows: [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '24:00' },
        ],
      },
    })
    const uncapped = await createRule({ publisherIds: [world.publisher.id], priority: -1 })
    for (let i = 0; i < 2; i++) {
      const outcome = await route(await acceptedLead(client, world))
      assert.equal(outcome.outcome, 'matched')
    }

    const usage = await capUsage([rule, uncapped])
    assert.deepEqual(usage.get(rule.id), {
      daily: { used: 2, limit: 5 },
      monthly: { used: 2, limit: 100 },
    })
    // An uncapped rule has no counter to read.
    assert.isFalse(usage.has(uncapped.id))

    // The counters it read are the ledger's own, keyed by the day in Auckland.
    const periods = capPeriods('Pacific/Auckland', new Date())
    const rows = await db.from('routing_rule_usage').where('rule_id', rule.id).orderBy('period')
    assert.deepEqual(
      rows.map((row) => [row.period, row.count]),
      [
        [periods.daily.key, 2],
        [periods.monthly.key, 2],
      ]
    )
  })

  test('a period without a counter yet counts the matches lead_facts holds', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id] })
    await route(await acceptedLead(client, world))
    await route(await acceptedLead(client, world))
    // Caps set after the rule sold: no counter row exists until the next match.
    rule.caps = { daily: 10 }
    await rule.save()
    assert.lengthOf(await db.from('routing_rule_usage').where('rule_id', rule.id), 0)

    const usage = await capUsage([rule])
    assert.deepEqual(usage.get(rule.id), { daily: { used: 2, limit: 10 } })
    // Reading created no counter: it locks nothing and writes nothing.
    assert.lengthOf(await db.from('routing_rule_usage').where('rule_id', rule.id), 0)
  })

  test('yesterday’s counter is not today’s usage', async ({ assert }) => {
    const rule = await createRule({ caps: { daily: 3 }, enabled: false })
    const yesterday = capPeriods('UTC', new Date(Date.now() - 86_400_000)).daily
    await db.table('routing_rule_usage').insert({
      rule_id: rule.id,
      period: yesterday.key,
      count: 3,
      expires_at: yesterday.end,
    })
    const usage = await capUsage([rule])
    assert.deepEqual(usage.get(rule.id), { daily: { used: 0, limit: 3 } })
  })
})
