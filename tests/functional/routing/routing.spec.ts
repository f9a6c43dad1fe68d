import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import AuditChainService from '#services/audit/audit_chain_service'
import TenancyService from '#services/platform/tenancy_service'
import { seededRandom } from '#services/routing/selection'
import Buyer from '#models/buyer'
import { createBuyer, createKey, createLabel, leadBody } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

async function storedLead(publisher: { schemaName: string }, id: string) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from('leads').where('id', id).firstOrFail())
}

test.group('Routing / a match', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('sells the lead in one go: status, facts, audit entry and the rich match.found', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const world = await routingPublisher(label)
    const buyer = await createBuyer()
    const rule = await createRule({
      buyerId: buyer.id,
      publisherIds: [world.publisher.id],
      priceCents: 2500,
      payoutCents: 1800,
      currency: 'EUR',
    })
    const leadId = await acceptedLead(client, world, { attributes: { age: 41 } })

    const outcome = await route(leadId)
    assert.deepEqual(outcome, { outcome: 'matched', leadId, ruleId: rule.id, buyerId: buyer.id })

    assert.equal((await storedLead(world.publisher, leadId)).status, 'matched')
    const fact = await factsOf(leadId)
    assert.include(fact, {
      status: 'matched',
      buyer_id: buyer.id,
      routing_rule_id: rule.id,
      price_cents: 2500,
      payout_cents: 1800,
      currency: 'EUR',
      unsold_reason: null,
    })
    assert.isNotNull(fact.matched_at)

    const entries = await db.from('audit.entries').where('lead_id', leadId).orderBy('lead_seq')
    const last = entries[entries.length - 1]
    assert.include(last, {
      event: 'lead.delivered',
      actor: `rule:${rule.id}`,
      status_from: 'accepted',
      status_to: 'matched',
      environment: 'live',
    })
    assert.equal(last.prev_hash, entries[entries.length - 2].hash)
    const verification = await (await app.container.make(AuditChainService)).verify(leadId)
    assert.isTrue(verification.valid)

    const event = await db
      .from('outbox_events')
      .where('lead_id', leadId)
      .where('type', 'match.found')
      .firstOrFail()
    // Only the buyer's endpoints: no publisher on an event carrying the price.
    assert.equal(event.buyer_id, buyer.id)
    assert.isNull(event.publisher_id)
    assert.equal(event.environment, 'live')
    assert.equal(event.payload.event_id, event.id)
    assert.equal(event.payload.type, 'match.found')
    const data = event.payload.data
    assert.deepEqual(data, {
      lead_id: leadId,
      status: 'matched',
      buyer_id: buyer.id,
      contact: {
        name: 'Jan Jansen',
        email: data.contact.email,
        phone: data.contact.phone,
        postal_code: '1012 AB',
        country: 'NL',
      },
      provenance: {
        source: 'facebook',
        campaign: 'winter-2026',
        label: label.slug,
        landing_page: 'https://energy.example/offer',
      },
      consent: {
        given: true,
        text: 'I agree that Demo Energy may contact me about my energy contract.',
        timestamp: data.consent.timestamp,
        ip: '203.0.113.9',
      },
      attributes: { age: 41 },
      price_cents: 2500,
      currency: 'EUR',
      matched_at: new Date(fact.matched_at).toISOString(),
    })
    assert.match(data.contact.phone, /^\+316\d{8}$/)
    assert.match(data.contact.email, /@example\.nl$/)
    assert.notInclude(JSON.stringify(data), world.publisher.slug)
    assert.notInclude(JSON.stringify(data), world.publisher.id)
    assert.notProperty(data, 'payout_cents')
  })

  test('exclusive and idempotent: a lead routed twice is sold once', async ({ client, assert }) => {
    const world = await routingPublisher()
    await createRule({ publisherIds: [world.publisher.id] })
    await createRule({ publisherIds: [world.publisher.id] })
    const leadId = await acceptedLead(client, world)

    const outcomes = await Promise.all([route(leadId), route(leadId), route(leadId)])
    assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['matched', 'skipped', 'skipped'])
    assert.lengthOf(
      await db.from('outbox_events').where('lead_id', leadId).where('type', 'match.found'),
      1
    )
    assert.lengthOf(
      await db.from('audit.entries').where('lead_id', leadId).where('event', 'lead.delivered'),
      1
    )
  })

  test('leads routed at once share a transaction, each with its own outcome and trail', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const capped = await createRule({
      publisherIds: [world.publisher.id],
      priority: 5,
      caps: { daily: 2, monthly: 100 },
      criteria: [{ field: 'attributes.product', op: 'in', value: ['solar'] }],
    })
    const fallback = await createRule({
      publisherIds: [world.publisher.id],
      criteria: [{ field: 'attributes.product', op: 'in', value: ['solar'] }],
    })
    const solar = await Promise.all(
      Array.from({ length: 5 }, () =>
        acceptedLead(client, world, { attributes: { product: 'solar' } })
      )
    )
    const windows = await Promise.all(
      Array.from({ length: 3 }, () =>
        acceptedLead(client, world, { attributes: { product: 'windows' } })
      )
    )

    const outcomes = await Promise.all([...solar, ...windows].map((id) => route(id)))
    const soldBy = (ruleId: string) =>
      outcomes.filter((o) => o.outcome === 'matched' && o.ruleId === ruleId).map((o) => o.leadId)
    assert.lengthOf(soldBy(capped.id), 2)
    assert.sameMembers([...soldBy(capped.id), ...soldBy(fallback.id)], solar)
    assert.deepEqual(
      outcomes.slice(5),
      windows.map((leadId) => ({ outcome: 'unsold', leadId, reason: 'criteria' }))
    )

    // Rows written by one transaction carry its id: eight leads, fewer transactions.
    const facts = await db
      .from('lead_facts')
      .whereIn('lead_id', [...solar, ...windows])
      .select('lead_id', 'status', 'unsold_reason', db.raw('xmin::text AS tx'))
    assert.isBelow(new Set(facts.map((fact) => fact.tx)).size, facts.length)
    for (const fact of facts) {
      assert.equal(fact.status, solar.includes(fact.lead_id) ? 'matched' : 'accepted')
      assert.equal(fact.unsold_reason, solar.includes(fact.lead_id) ? null : 'criteria')
    }

    const audit = await app.container.make(AuditChainService)
    for (const leadId of solar) {
      const trail = await audit.entriesFor(null, leadId)
      assert.equal(trail.at(-1)?.event, 'lead.delivered')
      assert.isTrue((await audit.verify(leadId)).valid)
    }
    assert.lengthOf(
      await db.from('outbox_events').whereIn('lead_id', solar).where('type', 'match.found'),
      5
    )
    assert.lengthOf(
      await db.from('audit.entries').whereIn('lead_id', windows).where('event', 'lead.delivered'),
      0
    )
  })

  test('a sandbox lead never meets a live rule: unsold, no buyer for it', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    await createRule({ publisherIds: [world.publisher.id] })
    const sandbox = await createKey({ publisherId: world.publisher.id, environment: 'sandbox' })
    const leadId = await acceptedLead(client, { publisher: world.publisher, key: sandbox.secret })

    assert.deepEqual(await route(leadId), { outcome: 'unsold', leadId, reason: 'no_rule' })
    const fact = await factsOf(leadId)
    assert.include(fact, {
      status: 'accepted',
      buyer_id: null,
      unsold_reason: 'no_rule',
    })
    assert.lengthOf(
      await db.from('outbox_events').where('lead_id', leadId).where('type', 'match.found'),
      0
    )
    assert.equal((await storedLead(world.publisher, leadId)).status, 'accepted')
  })

  test('flagged and rejected leads are not routed', async ({ client, assert }) => {
    const world = await routingPublisher()
    world.publisher.qualityRules = { phone: { action: 'flag' } } as any
    await world.publisher.save()
    await createRule({ publisherIds: [world.publisher.id] })
    const flagged = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { phone: '12' } }))
    assert.equal(flagged.body().status, 'flagged')
    assert.deepEqual(await route(flagged.body().id), {
      outcome: 'skipped',
      leadId: flagged.body().id,
      reason: 'not_accepted',
    })
    assert.isNull((await factsOf(flagged.body().id)).buyer_id)

    world.publisher.qualityRules = {} as any
    await world.publisher.save()
    const rejected = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { phone: '12' } }))
    rejected.assertStatus(422)
    assert.deepEqual(await route(rejected.body().id), {
      outcome: 'skipped',
      leadId: rejected.body().id,
      reason: 'not_accepted',
    })
    assert.include(await factsOf(rejected.body().id), {
      status: 'rejected',
      buyer_id: null,
      routed_at: null,
    })
  })
})

test.group('Routing / rule dimensions', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('label: a rule for a label takes that label’s leads only', async ({ client, assert }) => {
    const [label, otherLabel] = [await createLabel(), await createLabel()]
    const rule = await createRule({ labelIds: [label.id] })
    const ours = await routingPublisher(label)
    const theirs = await routingPublisher(otherLabel)
    const unlabelled = await routingPublisher()

    assert.include(await route(await acceptedLead(client, ours)), {
      outcome: 'matched',
      ruleId: rule.id,
    })
    for (const world of [theirs, unlabelled]) {
      const leadId = await acceptedLead(client, world)
      assert.deepEqual(await route(leadId), { outcome: 'unsold', leadId, reason: 'no_rule' })
      assert.include(await factsOf(leadId), {
        status: 'accepted',
        buyer_id: null,
        unsold_reason: 'no_rule',
      })
    }
  })

  test('publisher: a rule for publishers takes their leads only', async ({ client, assert }) => {
    const [first, second, other] = [
      await routingPublisher(),
      await routingPublisher(),
      await routingPublisher(),
    ]
    const rule = await createRule({ publisherIds: [first.publisher.id, second.publisher.id] })
    assert.include(await route(await acceptedLead(client, first)), {
      outcome: 'matched',
      ruleId: rule.id,
    })
    assert.include(await route(await acceptedLead(client, second)), {
      outcome: 'matched',
      ruleId: rule.id,
    })
    assert.include(await route(await acceptedLead(client, other)), {
      outcome: 'unsold',
      reason: 'no_rule',
    })
  })

  test('label and publisher together must both hold', async ({ client, assert }) => {
    const label = await createLabel()
    const [inside, sameLabelOtherPublisher] = [
      await routingPublisher(label),
      await routingPublisher(label),
    ]
    await createRule({ labelIds: [label.id], publisherIds: [inside.publisher.id] })
    assert.include(await route(await acceptedLead(client, inside)), { outcome: 'matched' })
    assert.include(await route(await acceptedLead(client, sameLabelOtherPublisher)), {
      outcome: 'unsold',
      reason: 'no_rule',
    })
  })

  test('criteria over attributes and contact fields', async ({ client, assert }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      criteria: [
        { field: 'attributes.age', op: 'gte', value: 30 },
        { field: 'contact.phone', op: 'prefix', value: '+316' },
        { field: 'attributes.product', op: 'in', value: ['solar', 'heat_pump'] },
      ],
    })
    const fits = await acceptedLead(client, world, { attributes: { age: 45, product: 'Solar' } })
    assert.include(await route(fits), { outcome: 'matched', ruleId: rule.id })

    for (const attributes of [
      { age: 25, product: 'solar' },
      { product: 'solar' },
      { age: 45, product: 'windows' },
    ]) {
      const leadId = await acceptedLead(client, world, { attributes })
      assert.deepEqual(
        await route(leadId),
        { outcome: 'unsold', leadId, reason: 'criteria' },
        JSON.stringify(attributes)
      )
    }
  })

  test('a disabled, paused or deleted rule takes nothing from the next lead on', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({ publisherIds: [world.publisher.id], enabled: false })
    assert.include(await route(await acceptedLead(client, world)), {
      outcome: 'unsold',
      reason: 'no_rule',
    })

    rule.enabled = true
    await rule.save()
    const buyer = await Buyer.findOrFail(rule.buyerId)
    buyer.status = 'paused'
    await buyer.save()
    assert.include(await route(await acceptedLead(client, world)), {
      outcome: 'unsold',
      reason: 'no_rule',
    })

    buyer.status = 'active'
    await buyer.save()
    assert.include(await route(await acceptedLead(client, world)), {
      outcome: 'matched',
      ruleId: rule.id,
    })

    // Routers keep the rules in memory: a deleted rule must be gone from the very next decision.
    await rule.delete()
    assert.include(await route(await acceptedLead(client, world)), {
      outcome: 'unsold',
      reason: 'no_rule',
    })
  })
})

test.group('Routing / priority and weight', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the highest priority wins; when it is capped the next one takes the lead', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const low = await createRule({ publisherIds: [world.publisher.id], priority: 1, weight: 100 })
    const high = await createRule({
      publisherIds: [world.publisher.id],
      priority: 10,
      caps: { daily: 2 },
    })

    const winners = []
    for (let i = 0; i < 4; i++)
      winners.push((await route(await acceptedLead(client, world))) as any)
    assert.deepEqual(
      winners.map((w) => w.ruleId),
      [high.id, high.id, low.id, low.id]
    )
  })

  test('equal priorities share leads by weight, reproducibly with a seed', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const light = await createRule({ publisherIds: [world.publisher.id], weight: 1 })
    const heavy = await createRule({ publisherIds: [world.publisher.id], weight: 4 })
    const leads = []
    for (let i = 0; i < 40; i++) leads.push(await acceptedLead(client, world))

    const random = seededRandom(5)
    const counts = { [light.id]: 0, [heavy.id]: 0 }
    for (const leadId of leads) {
      const outcome = (await route(leadId, { random })) as any
      counts[outcome.ruleId]++
    }
    // The same seed replays the same draws: what the rule order gives, the routing gave.
    const replay = seededRandom(5)
    const expected = { [light.id]: 0, [heavy.id]: 0 }
    for (let i = 0; i < leads.length; i++) {
      const keys = [light, heavy].map((rule) => ({
        id: rule.id,
        key: -Math.log(1 - replay()) / rule.weight,
      }))
      expected[keys.sort((a, b) => a.key - b.key)[0].id]++
    }
    assert.deepEqual(counts, expected)
    assert.isAbove(counts[heavy.id], counts[light.id] * 2)
    assert.isAbove(counts[light.id], 0)
  })
})

test.group('Routing / schedules', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a window is read in the rule’s time zone, across a UTC day boundary', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const rule = await createRule({
      publisherIds: [world.publisher.id],
      schedule: {
        timezone: 'America/New_York',
        windows: [{ days: ['mon'], from: '20:00', to: '24:00' }],
      },
    })
    const leadId = await acceptedLead(client, world)
    // Monday 22:00 UTC is 17:00 in New York: closed.
    const early = new Date('2027-01-04T22:00:00Z')
    assert.deepEqual(await route(leadId, { now: early }), {
      outcome: 'unsold',
      leadId,
      reason: 'outside_schedule',
    })
    assert.include(await factsOf(leadId), { unsold_reason: 'outside_schedule' })
    assert.equal(new Date((await factsOf(leadId)).routed_at).toISOString(), early.toISOString())
    // Tuesday 02:00 UTC is still Monday, 21:00, in New York: open.
    assert.include(await route(leadId, { now: new Date('2027-01-05T02:00:00Z') }), {
      outcome: 'matched',
      ruleId: rule.id,
    })
    assert.include(await factsOf(leadId), { unsold_reason: null, status: 'matched' })
  })

  test('office hours follow the daylight-saving change', async ({ client, assert }) => {
    const world = await routingPublisher()
    await createRule({
      publisherIds: [world.publisher.id],
      schedule: {
        timezone: 'Europe/Amsterdam',
        windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
      },
    })
    const leadId = await acceptedLead(client, world)
    // 07:30 UTC: 08:30 on the Friday before the change (CET), 09:30 on the Monday after (CEST).
    assert.include(await route(leadId, { now: new Date('2027-03-26T07:30:00Z') }), {
      outcome: 'unsold',
      reason: 'outside_schedule',
    })
    assert.include(await route(leadId, { now: new Date('2027-03-29T07:30:00Z') }), {
      outcome: 'matched',
    })
  })
})
