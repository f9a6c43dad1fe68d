import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type RoutingRule from '#models/routing_rule'
import { capPeriods } from '#services/routing/schedule'
import { transaction } from '#services/sql/transaction'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  eventually,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/**
 * Routers read cap counters without a lock and take only the units they
 * chose, with a guarded increment (caps.ts): these specs stand in for the
 * other router with a transaction of their own that holds a counter row.
 */

/** The day's counter of a rule in UTC (rules here have no schedule), created at `count`. */
async function dayCounter(rule: RoutingRule, count: number) {
  const day = capPeriods('UTC', new Date()).daily
  await db
    .table('routing_rule_usage')
    .insert({ rule_id: rule.id, period: day.key, count, expires_at: day.end })
  return day.key
}

async function dayCount(rule: RoutingRule) {
  const day = capPeriods('UTC', new Date()).daily
  const row = await db
    .from('routing_rule_usage')
    .where({ rule_id: rule.id, period: day.key })
    .first()
  return row?.count as number | undefined
}

/**
 * Another router's transaction holding the rule's day counter locked until
 * `commit`, which then takes one unit of it, or `release`, which takes none.
 */
async function rival(rule: RoutingRule) {
  const period = capPeriods('UTC', new Date()).daily.key
  const held = Promise.withResolvers<number>()
  const decision = Promise.withResolvers<boolean>()
  const done = transaction(async (trx) => {
    const where = 'WHERE rule_id = ? AND period = ?'
    const locked = await trx.rawQuery(
      `SELECT pg_backend_pid() AS pid FROM routing_rule_usage ${where} FOR UPDATE`,
      [rule.id, period]
    )
    held.resolve(locked.rows[0].pid)
    if (await decision.promise) {
      await trx.rawQuery(`UPDATE routing_rule_usage SET count = count + 1 ${where}`, [
        rule.id,
        period,
      ])
    }
  })
  done.catch(held.reject)
  return {
    pid: await held.promise,
    commit: () => (decision.resolve(true), done),
    release: () => (decision.resolve(false), done),
  }
}

/** Resolves once a statement containing `sql` waits for a lock the other transaction holds. */
function waitingOn(sql: string, other: { pid: number }) {
  return eventually(async () => {
    const { rows } = await db.rawQuery(
      `SELECT 1 FROM pg_stat_activity
        WHERE ?::int = ANY(pg_blocking_pids(pid)) AND position(? in query) > 0`,
      [other.pid, sql]
    )
    return rows.length > 0
  })
}

const GUARDED_INCREMENT = 'u.count + t.units <= t.cap'
const LOCKED_READ = 'FOR UPDATE OF u'

test.group('Routing / cap counters under contention', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a router that lost the last unit to another decides again and never overshoots', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const capped = await createRule({
      publisherIds: [world.publisher.id],
      priority: 10,
      caps: { daily: 1 },
    })
    const fallback = await createRule({ publisherIds: [world.publisher.id], priority: 1 })
    await dayCounter(capped, 0)
    const lead = await acceptedLead(client, world)

    const other = await rival(capped)
    let routed: ReturnType<typeof route> | undefined
    try {
      routed = route(lead)
      // It read 0 of 1 without waiting and chose the capped rule: its increment waits for the other.
      await waitingOn(GUARDED_INCREMENT, other)
    } finally {
      // The other takes the last unit: the router's guard fails on the count it waited for.
      await other.commit()
    }
    assert.deepInclude(await routed, { outcome: 'matched', ruleId: fallback.id })

    assert.equal(await dayCount(capped), 1)
    assert.include(await factsOf(lead), {
      status: 'matched',
      routing_rule_id: fallback.id,
      buyer_id: fallback.buyerId,
    })
    const events = await db.from('outbox_events').where({ lead_id: lead, type: 'match.found' })
    assert.deepEqual(
      events.map((event) => event.buyer_id),
      [fallback.buyerId]
    )
    const delivered = await db
      .from('audit.entries')
      .where({ lead_id: lead, event: 'lead.delivered' })
    assert.deepEqual(
      delivered.map((entry) => entry.actor),
      [`rule:${fallback.id}`]
    )
  }).timeout(30_000)

  test('after three lost races a group locks its counters and cannot lose again', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const capped = []
    for (const priority of [40, 30, 20, 10]) {
      capped.push(
        await createRule({ publisherIds: [world.publisher.id], priority, caps: { daily: 1 } })
      )
    }
    const fallback = await createRule({ publisherIds: [world.publisher.id], priority: 1 })
    for (const rule of capped) await dayCounter(rule, 0)
    const lead = await acceptedLead(client, world)

    const others = []
    for (const rule of capped) others.push(await rival(rule))
    let routed: ReturnType<typeof route> | undefined
    try {
      routed = route(lead)
      // Each unlocked attempt chooses the next rule and loses its last unit to the other there.
      for (const other of others.slice(0, 3)) {
        await waitingOn(GUARDED_INCREMENT, other)
        await other.commit()
      }
      // The fourth locks every counter it may draw on before it decides.
      await waitingOn(LOCKED_READ, others[3])
    } finally {
      for (const other of others) await other.commit()
    }
    assert.deepInclude(await routed, { outcome: 'matched', ruleId: fallback.id })

    for (const rule of capped) assert.equal(await dayCount(rule), 1)
    assert.include(await factsOf(lead), { status: 'matched', routing_rule_id: fallback.id })
  }).timeout(30_000)

  test('publishers racing for one cap sell exactly its units', async ({ client, assert }) => {
    const worlds = await Promise.all([1, 2, 3, 4].map(() => routingPublisher()))
    const rule = await createRule({
      publisherIds: worlds.map((world) => world.publisher.id),
      caps: { daily: 5 },
    })
    const ids = (
      await Promise.all(
        worlds.map((world) =>
          Promise.all(Array.from({ length: 6 }, () => acceptedLead(client, world)))
        )
      )
    ).flat()

    // One routing transaction per publisher at a time: four at once, each counting on the same units.
    const outcomes = await Promise.all(ids.map((id) => route(id)))
    assert.lengthOf(
      outcomes.filter((o) => o.outcome === 'matched'),
      5
    )

    assert.equal(await dayCount(rule), 5)
    const facts = await db.from('lead_facts').whereIn('lead_id', ids)
    assert.lengthOf(
      facts.filter((f) => f.status === 'matched' && f.routing_rule_id === rule.id),
      5
    )
    assert.lengthOf(
      facts.filter((f) => f.status === 'accepted' && f.unsold_reason === 'cap_reached'),
      19
    )
    assert.lengthOf(
      await db.from('outbox_events').whereIn('lead_id', ids).where('type', 'match.found'),
      5
    )
  }).timeout(30_000)

  test('a group waits on no counter it does not take from', async ({ client, assert }) => {
    const world = await routingPublisher()
    const full = await createRule({
      publisherIds: [world.publisher.id],
      priority: 10,
      caps: { daily: 1 },
    })
    const next = await createRule({
      publisherIds: [world.publisher.id],
      priority: 5,
      caps: { daily: 5 },
    })
    await dayCounter(full, 1)
    const elsewhere = await routingPublisher()
    const uncapped = await createRule({ publisherIds: [elsewhere.publisher.id] })
    const [lead, otherLead] = [
      await acceptedLead(client, world),
      await acceptedLead(client, elsewhere),
    ]

    // Another transaction holds the full rule's counter; it stays held until both leads are routed.
    const other = await rival(full)
    let timer: NodeJS.Timeout | undefined
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('routing waited for the held counter')), 5_000)
      })
      const outcomes = await Promise.race([Promise.all([route(lead), route(otherLead)]), timeout])
      assert.deepInclude(outcomes[0], { outcome: 'matched', ruleId: next.id })
      assert.deepInclude(outcomes[1], { outcome: 'matched', ruleId: uncapped.id })
    } finally {
      clearTimeout(timer)
      await other.release()
    }

    assert.equal(await dayCount(full), 1)
    assert.equal(await dayCount(next), 1)
    assert.include(await factsOf(lead), { status: 'matched', routing_rule_id: next.id })
    assert.include(await factsOf(otherLead), { status: 'matched', routing_rule_id: uncapped.id })
  }).timeout(30_000)
})
