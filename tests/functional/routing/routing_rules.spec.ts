import { test } from '@japa/runner'
import RoutingRule from '#models/routing_rule'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

const SCHEDULE = {
  timezone: 'Europe/Amsterdam',
  windows: [
    { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' },
    { days: ['sat'], from: '10:00', to: '24:00' },
  ],
}

async function catalogue() {
  const [buyer, label, otherLabel, publisher] = [
    await createBuyer(),
    await createLabel(),
    await createLabel(),
    await createPublisher(),
  ]
  return { buyer, label, otherLabel, publisher }
}

async function createRule(overrides: Partial<RoutingRule> = {}) {
  return RoutingRule.create({
    buyerId: overrides.buyerId ?? (await createBuyer()).id,
    labelIds: [],
    publisherIds: [],
    criteria: [],
    priceCents: 1000,
    payoutCents: 600,
    currency: 'EUR',
    caps: {},
    schedule: null,
    priority: 0,
    weight: 1,
    enabled: true,
    ...overrides,
  })
}

test.group('Routing rules / create and read', () => {
  test('the operator creates a full rule: labels answered as slugs, stored as ids, logged', async ({
    client,
    assert,
  }) => {
    const { buyer, label, otherLabel, publisher } = await catalogue()
    const key = await operatorKey()
    const input = {
      buyer_id: buyer.id,
      labels: [otherLabel.slug, label.slug],
      publishers: [publisher.id],
      criteria: [
        { field: 'attributes.age', op: 'between', value: [25, 55] },
        { field: 'contact.postal_code', op: 'prefix', value: '10' },
      ],
      price_cents: 2500,
      payout_cents: 1500,
      currency: 'eur',
      caps: { daily: 50, monthly: 1000 },
      schedule: SCHEDULE,
      priority: 10,
      weight: 3,
      enabled: false,
    }
    const response = await client.post('/v1/routing-rules').bearerToken(key).json(input)

    response.assertStatus(201)
    const body = response.body()
    assert.deepEqual(Object.keys(body).sort(), [
      'buyer_criteria',
      'buyer_id',
      'caps',
      'created_at',
      'criteria',
      'currency',
      'destination_id',
      'enabled',
      'environment',
      'exclusive',
      'id',
      'labels',
      'mode',
      'payout_cents',
      'payout_share_percent',
      'price_cents',
      'priority',
      'publishers',
      'reserve_cents',
      'return_window_hours',
      'schedule',
      'status',
      'updated_at',
      'weight',
    ])
    assert.deepEqual(body, {
      ...input,
      currency: 'EUR',
      // Sold by Leadgate's webhook, at the rule's price, exclusively (docs/selling.md).
      buyer_criteria: [],
      destination_id: null,
      mode: 'fixed',
      exclusive: true,
      reserve_cents: null,
      payout_share_percent: null,
      status: 'paused',
      // No window of its own: the buyer's applies (docs/money.md).
      return_window_hours: null,
      // Live unless asked (docs/sandbox.md).
      environment: 'live',
      id: body.id,
      created_at: body.created_at,
      updated_at: body.updated_at,
    })

    const stored = await RoutingRule.findOrFail(body.id)
    assert.deepEqual(stored.labelIds, [otherLabel.id, label.id])
    assert.deepEqual(stored.publisherIds, [publisher.id])
    assert.deepEqual(stored.criteria as unknown, input.criteria)
    assert.deepEqual(stored.schedule as unknown, SCHEDULE)
    assert.include(stored.$attributes, {
      buyerId: buyer.id,
      priceCents: 2500,
      payoutCents: 1500,
      currency: 'EUR',
      priority: 10,
      weight: 3,
      enabled: false,
    })
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', body.id)
        .where('action', 'routing_rule.created')
        .where('buyer_id', buyer.id)
        .first()
    )

    const shown = await client.get(`/v1/routing-rules/${body.id}`).bearerToken(key)
    shown.assertStatus(200)
    assert.deepEqual(shown.body(), body)
  })

  test('a minimal rule takes the defaults', async ({ client, assert }) => {
    const buyer = await createBuyer()
    const response = await client
      .post('/v1/routing-rules')
      .bearerToken(await operatorKey())
      .json({ buyer_id: buyer.id, price_cents: 1000, payout_cents: 1000, currency: 'USD' })
    response.assertStatus(201)
    assert.containSubset(response.body(), {
      labels: [],
      publishers: [],
      criteria: [],
      caps: {},
      schedule: null,
      priority: 0,
      weight: 1,
      enabled: true,
    })
    const stored = await RoutingRule.findOrFail(response.body().id)
    assert.deepEqual(
      [stored.labelIds, stored.publisherIds, stored.criteria, stored.weight],
      [[], [], [], 1]
    )
  })

  test('the list pages newest first and filters by buyer', async ({ client, assert }) => {
    const key = await operatorKey()
    const buyer = await createBuyer()
    const first = await createRule({ buyerId: buyer.id })
    const second = await createRule({ buyerId: buyer.id })
    await createRule()

    const page = await client
      .get('/v1/routing-rules')
      .qs({ buyer_id: buyer.id, limit: 1 })
      .bearerToken(key)
    page.assertStatus(200)
    assert.deepEqual(
      page.body().data.map((rule: any) => rule.id),
      [second.id]
    )
    const next = await client
      .get('/v1/routing-rules')
      .qs({ buyer_id: buyer.id, limit: 1, cursor: page.body().next_cursor })
      .bearerToken(key)
    assert.deepEqual(
      next.body().data.map((rule: any) => rule.id),
      [first.id]
    )
    assert.isNull(next.body().next_cursor)
  })
})

test.group('Routing rules / change and delete', () => {
  test('PATCH changes only what it names; DELETE removes the rule', async ({ client, assert }) => {
    const { label, publisher } = await catalogue()
    const key = await operatorKey()
    const rule = await createRule({ schedule: SCHEDULE, caps: { daily: 5 } })

    const patched = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({
        labels: [label.slug],
        publishers: [publisher.id.toUpperCase()],
        price_cents: 1200,
        schedule: null,
        enabled: false,
      })
    patched.assertStatus(200)
    assert.containSubset(patched.body(), {
      labels: [label.slug],
      publishers: [publisher.id],
      price_cents: 1200,
      payout_cents: 600,
      schedule: null,
      caps: { daily: 5 },
      enabled: false,
    })
    await rule.refresh()
    assert.deepEqual(rule.labelIds, [label.id])
    assert.deepEqual(rule.publisherIds, [publisher.id])
    assert.equal(rule.priceCents, 1200)
    assert.isNull(rule.schedule)
    assert.isFalse(rule.enabled)
    const updated = await AccessLogEntry.query()
      .where('subject_id', rule.id)
      .where('action', 'routing_rule.updated')
      .firstOrFail()
    assert.sameMembers(updated.details.fields as string[], [
      'labels',
      'publishers',
      'price_cents',
      'schedule',
      'enabled',
    ])

    const removed = await client.delete(`/v1/routing-rules/${rule.id}`).bearerToken(key)
    removed.assertStatus(204)
    assert.isNull(await RoutingRule.find(rule.id))
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', rule.id)
        .where('action', 'routing_rule.deleted')
        .first()
    )
    ;(await client.get(`/v1/routing-rules/${rule.id}`).bearerToken(key)).assertStatus(404)
    ;(await client.delete(`/v1/routing-rules/${rule.id}`).bearerToken(key)).assertStatus(404)
  })

  test('a PATCH that would pay out more than the price is refused and changes nothing', async ({
    client,
    assert,
  }) => {
    const rule = await createRule()
    const key = await operatorKey()
    const before = await databaseState(['access_log'], [{ table: 'routing_rules', id: rule.id }])

    const response = await client
      .patch(`/v1/routing-rules/${rule.id}`)
      .bearerToken(key)
      .json({ price_cents: 500 })
    response.assertStatus(422)
    assert.deepEqual(
      response.body().errors.map((error: any) => [error.field, error.code]),
      [['payout_cents', 'payout_exceeds_price']]
    )
    assert.deepEqual(
      await databaseState(['access_log'], [{ table: 'routing_rules', id: rule.id }]),
      before
    )
  })
})

test.group('Routing rules / validation', () => {
  test('unknown buyer, labels and publishers, and a payout above the price, answer 422 per field', async ({
    client,
    assert,
  }) => {
    const { label } = await catalogue()
    const key = await operatorKey()
    const before = await databaseState(['routing_rules', 'access_log'])

    const response = await client
      .post('/v1/routing-rules')
      .bearerToken(key)
      .json({
        buyer_id: '0190b5a4-0000-7000-8000-000000000000',
        labels: [label.slug, 'no-such-label'],
        publishers: ['0190b5a4-0000-7000-8000-000000000001'],
        price_cents: 100,
        payout_cents: 101,
        currency: 'EUR',
      })
    response.assertStatus(422)
    assert.sameDeepMembers(
      response.body().errors.map((error: any) => [error.field, error.code]),
      [
        ['buyer_id', 'exists'],
        ['labels.1', 'exists'],
        ['publishers.0', 'exists'],
        ['payout_cents', 'payout_exceeds_price'],
      ]
    )
    assert.deepEqual(await databaseState(['routing_rules', 'access_log']), before)
  })

  const base = { price_cents: 1000, payout_cents: 500, currency: 'EUR' }
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['missing price', { price_cents: undefined }, 'price_cents', 'required'],
    ['price as text', { price_cents: 'lots' }, 'price_cents', 'number'],
    ['negative payout', { payout_cents: -1 }, 'payout_cents', 'min'],
    ['fractional cents', { price_cents: 10.5 }, 'price_cents', 'withoutDecimals'],
    ['currency of four letters', { currency: 'EURO' }, 'currency', 'fixedLength'],
    ['currency not in ISO 4217', { currency: 'ABC' }, 'currency', 'currency'],
    ['weight 0', { weight: 0 }, 'weight', 'range'],
    ['weight 1001', { weight: 1001 }, 'weight', 'range'],
    ['priority fractional', { priority: 1.5 }, 'priority', 'withoutDecimals'],
    ['enabled as text', { enabled: 'maybe' }, 'enabled', 'boolean'],
    ['daily cap 0', { caps: { daily: 0 } }, 'caps.daily', 'range'],
    ['unknown cap', { caps: { weekly: 10 } }, 'caps.weekly', 'unknown_field'],
    ['label not a slug', { labels: ['Not A Slug'] }, 'labels.0', 'regex'],
    ['publisher not a uuid', { publishers: ['abc'] }, 'publishers.0', 'uuid'],
    [
      'unknown time zone',
      { schedule: { ...SCHEDULE, timezone: 'Mars/Olympus' } },
      'schedule.timezone',
      'timezone',
    ],
    ['no windows', { schedule: { timezone: 'UTC', windows: [] } }, 'schedule.windows', 'notEmpty'],
    [
      'unknown day',
      {
        schedule: { timezone: 'UTC', windows: [{ days: ['funday'], from: '08:00', to: '09:00' }] },
      },
      'schedule.windows.0.days.0',
      'enum',
    ],
    [
      'bad time',
      { schedule: { timezone: 'UTC', windows: [{ days: ['mon'], from: '8am', to: '09:00' }] } },
      'schedule.windows.0.from',
      'regex',
    ],
    [
      'window backwards',
      { schedule: { timezone: 'UTC', windows: [{ days: ['mon'], from: '22:00', to: '06:00' }] } },
      'schedule.windows.0.to',
      'window_order',
    ],
    [
      'criterion with an action',
      { criteria: [{ field: 'attributes.age', op: 'gte', value: 18, action: 'reject' }] },
      'criteria.0.action',
      'unknown_field',
    ],
    [
      'criterion value wrong for op',
      { criteria: [{ field: 'attributes.age', op: 'between', value: [30] }] },
      'criteria.0.value',
      'criterion_value',
    ],
    [
      'criterion on unknown field',
      { criteria: [{ field: 'contact.age', op: 'gte', value: 18 }] },
      'criteria.0.field',
      'lead_field',
    ],
    ['unknown field', { margin: 5 }, 'margin', 'unknown_field'],
  ]

  // Refused bodies store nothing, so one buyer serves every case.
  let sharedBuyer: Promise<{ id: string }> | undefined
  let sharedKey: Promise<string> | undefined

  test('{title}')
    .with(cases.map(([title, changes, field, code]) => ({ title, changes, field, code })))
    .run(async ({ client, assert }, { changes, field, code }) => {
      sharedBuyer ??= createBuyer()
      sharedKey ??= operatorKey()
      const [buyer, key] = [await sharedBuyer, await sharedKey]
      const before = await databaseState(['routing_rules', 'access_log'])
      const body = JSON.parse(JSON.stringify({ buyer_id: buyer.id, ...base, ...changes }))

      const response = await client.post('/v1/routing-rules').bearerToken(key).json(body)
      response.assertStatus(422)
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code]
      )
      assert.deepEqual(await databaseState(['routing_rules', 'access_log']), before)
    })
})

test.group('Routing rules / who may', () => {
  test('a publisher key gets 403 on the collection, another buyer 404 on a rule, and neither changes it', async ({
    client,
    assert,
  }) => {
    const rule = await createRule()
    const buyer = await createBuyer()
    const publisherKey = await createKey({ publisherId: (await createPublisher()).id })
    const otherBuyerKey = await createKey({ buyerId: buyer.id })
    const before = await databaseState(
      ['routing_rules', 'access_log'],
      [{ table: 'routing_rules', id: rule.id }]
    )

    for (const { secret } of [publisherKey, otherBuyerKey]) {
      const create = await client
        .post('/v1/routing-rules')
        .bearerToken(secret)
        .json({ buyer_id: buyer.id, price_cents: 1, payout_cents: 1, currency: 'EUR' })
      create.assertStatus(403)
      assert.equal(create.body().code, 'operator_only')
      ;(await client.get(`/v1/routing-rules/${rule.id}`).bearerToken(secret)).assertStatus(404)
      ;(
        await client
          .patch(`/v1/routing-rules/${rule.id}`)
          .bearerToken(secret)
          .json({ enabled: false })
      ).assertStatus(404)
      ;(await client.delete(`/v1/routing-rules/${rule.id}`).bearerToken(secret)).assertStatus(404)
    }
    ;(await client.get('/v1/routing-rules').bearerToken(publisherKey.secret)).assertStatus(403)
    const otherBuyers = await client.get('/v1/routing-rules').bearerToken(otherBuyerKey.secret)
    otherBuyers.assertStatus(200)
    assert.deepEqual(otherBuyers.body().data, [])
    assert.deepEqual(
      await databaseState(
        ['routing_rules', 'access_log'],
        [{ table: 'routing_rules', id: rule.id }]
      ),
      before
    )
  })

  test('sandbox and read-only operator keys change nothing; read-only may read', async ({
    client,
    assert,
  }) => {
    const rule = await createRule()
    const sandbox = await createKey({ environment: 'sandbox' })
    const readOnly = await createKey({ permissions: ['read'] })
    const before = await databaseState(
      ['routing_rules', 'access_log'],
      [{ table: 'routing_rules', id: rule.id }]
    )

    for (const { secret, code } of [
      { secret: sandbox.secret, code: 'environment_not_allowed' },
      { secret: readOnly.secret, code: 'permission_missing' },
    ]) {
      const attempts = [
        client
          .post('/v1/routing-rules')
          .bearerToken(secret)
          .json({ buyer_id: rule.buyerId, price_cents: 1, payout_cents: 1, currency: 'EUR' }),
        client.patch(`/v1/routing-rules/${rule.id}`).bearerToken(secret).json({ enabled: false }),
        client.delete(`/v1/routing-rules/${rule.id}`).bearerToken(secret),
      ]
      for (const attempt of attempts) {
        const response = await attempt
        response.assertStatus(403)
        assert.equal(response.body().code, code)
      }
    }
    assert.deepEqual(
      await databaseState(
        ['routing_rules', 'access_log'],
        [{ table: 'routing_rules', id: rule.id }]
      ),
      before
    )

    ;(await client.get(`/v1/routing-rules/${rule.id}`).bearerToken(readOnly.secret)).assertStatus(
      200
    )
    ;(await client.get('/v1/routing-rules').bearerToken(readOnly.secret)).assertStatus(200)
  })
})
