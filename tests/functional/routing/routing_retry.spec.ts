import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import routingConfig from '#config/routing'
import RoutingSweeper from '#services/routing/sweeper'
import { createKey } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/** Every due lead in the database (other specs leave theirs), so a test can look for its own. */
async function due(now: Date) {
  const sweeper = await app.container.make(RoutingSweeper)
  return sweeper.dueLeads({ now, limit: 1_000_000 })
}

/**
 * A moment tomorrow (UTC) at hh:07: later than every rule's last change, and
 * seven minutes past any time zone's midnight or a window opening on the
 * hour, so the minute after it brings no reset of its own.
 */
function tomorrowAt(hour: number) {
  return DateTime.utc().plus({ days: 1 }).set({ hour, minute: 7, second: 0, millisecond: 0 })
}

const ALL_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']

test.group('Routing / retries of unsold leads', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a lead over the cap is offered again once the rule’s day has reset', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      caps: { daily: 1 },
      schedule: {
        timezone: 'Europe/Amsterdam',
        windows: [{ days: ALL_DAY, from: '00:00', to: '24:00' }],
      },
    })
    const [sold, waiting] = [await acceptedLead(client, world), await acceptedLead(client, world)]
    const first = tomorrowAt(10)
    assert.include(await route(sold, { now: first.toJSDate() }), { outcome: 'matched' })
    assert.include(await route(waiting, { now: first.toJSDate() }), {
      outcome: 'unsold',
      reason: 'cap_reached',
    })

    // Same day in Amsterdam: nothing has changed for it.
    assert.notInclude(await due(first.plus({ minutes: 1 }).toJSDate()), waiting)
    // Five past midnight, Amsterdam time, the next day: the cap has reset.
    const nextDay = first
      .setZone('Europe/Amsterdam')
      .plus({ days: 1 })
      .startOf('day')
      .plus({ minutes: 5 })
    const dueLeads = await due(nextDay.toJSDate())
    assert.include(dueLeads, waiting)
    assert.notInclude(dueLeads, sold)

    assert.include(await route(waiting, { now: nextDay.toJSDate() }), {
      outcome: 'matched',
      ruleId: rule.id,
    })
    assert.notInclude(await due(nextDay.plus({ minutes: 1 }).toJSDate()), waiting)
  })

  test('a lead outside every schedule is offered again when a window opens', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    await createRule({
      publisherIds: [world.publisher.id],
      schedule: { timezone: 'UTC', windows: [{ days: ALL_DAY, from: '12:00', to: '13:00' }] },
    })
    const leadId = await acceptedLead(client, world)
    const morning = tomorrowAt(7)
    assert.include(await route(leadId, { now: morning.toJSDate() }), {
      outcome: 'unsold',
      reason: 'outside_schedule',
    })
    assert.notInclude(await due(morning.plus({ minutes: 1 }).toJSDate()), leadId)

    const opened = morning.set({ hour: 12, minute: 1 })
    assert.include(await due(opened.toJSDate()), leadId)
    assert.include(await route(leadId, { now: opened.toJSDate() }), { outcome: 'matched' })
  })

  test('an unsold lead is offered again when the rules change, until it is too old', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const leadId = await acceptedLead(client, world)
    assert.include(await route(leadId), { outcome: 'unsold', reason: 'no_rule' })
    assert.notInclude(await due(new Date()), leadId)

    await new Promise((resolve) => setTimeout(resolve, 5))
    const rule = await createRule({ publisherIds: [world.publisher.id] })
    assert.include(await due(new Date()), leadId)
    const tooLate = new Date(Date.now() + (routingConfig.retryMaxAgeHours + 1) * 3_600_000)
    assert.notInclude(await due(tooLate), leadId)

    assert.include(await route(leadId), { outcome: 'matched', ruleId: rule.id })
    assert.notInclude(await due(new Date()), leadId)
  })

  test('a lead whose job was lost is picked up, live or sandbox; sold leads never are', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const lost = await acceptedLead(client, world)
    const sandbox = await createKey({ publisherId: world.publisher.id, environment: 'sandbox' })
    const sandboxLead = await acceptedLead(client, {
      publisher: world.publisher,
      key: sandbox.secret,
    })
    const created = new Date((await factsOf(lost)).created_at).getTime()

    assert.notInclude(await due(new Date(created + 5_000)), lost, 'its job may still be on the way')
    const later = await due(new Date(created + (routingConfig.lostAfterSeconds + 5) * 1000))
    assert.include(later, lost)
    // The sandbox routes like live (docs/sandbox.md): its lost jobs are found the same way.
    assert.include(later, sandboxLead)

    await createRule({ publisherIds: [world.publisher.id] })
    await createRule({ publisherIds: [world.publisher.id], environment: 'sandbox' })
    assert.include(await route(lost), { outcome: 'matched' })
    assert.include(await route(sandboxLead), { outcome: 'matched' })
    const afterwards = await due(new Date(created + 3_600_000))
    assert.notInclude(afterwards, lost)
    assert.notInclude(afterwards, sandboxLead)
  })

  test('counter rows of periods long over are pruned', async ({ assert }) => {
    const rule = await createRule({
      caps: { daily: 1 },
      publisherIds: [(await routingPublisher()).publisher.id],
    })
    await db.table('routing_rule_usage').insert([
      {
        rule_id: rule.id,
        period: 'day:2020-01-01',
        count: 1,
        expires_at: new Date('2020-01-02T00:00:00Z'),
      },
      {
        rule_id: rule.id,
        period: 'day:2099-01-01',
        count: 1,
        expires_at: new Date('2099-01-02T00:00:00Z'),
      },
    ])
    await (await app.container.make(RoutingSweeper)).pruneUsage()
    const left = await db.from('routing_rule_usage').where('rule_id', rule.id).select('period')
    assert.deepEqual(
      left.map((row) => row.period),
      ['day:2099-01-01']
    )
  })
})
