import { test } from '@japa/runner'
import type Publisher from '#models/publisher'
import AccessLogEntry from '#models/access_log_entry'
import { createBuyer, createKey, createPublisher, operatorKey } from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

const FULL_DOCUMENT = {
  required_fields: ['contact.email', 'contact.phone', 'attributes.age'],
  postal_code: { required: true, action: 'reject' },
  phone: { action: 'flag' },
  email: { action: 'reject' },
  consent: { required: true, action: 'reject', max_age_days: 30 },
  target_audience: [
    { field: 'attributes.age', op: 'between', value: [18, 65], action: 'reject' },
    { field: 'contact.country', op: 'in', value: ['NL', 'BE'], action: 'reject' },
    { field: 'attributes.product', op: 'not_in', value: ['loan'], action: 'flag' },
    { field: 'attributes.homeowner', op: 'eq', value: true, action: 'flag' },
    { field: 'attributes.income', op: 'gte', value: 2000, action: 'flag' },
    { field: 'attributes.debt', op: 'lte', value: 0, action: 'reject' },
    { field: 'contact.postal_code', op: 'prefix', value: '10', action: 'flag' },
  ],
  duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
}

async function publisherWithMethods() {
  const publisher = await createPublisher()
  publisher.deliveryMethods = ['api']
  await publisher.save()
  return publisher
}

test.group('Quality rules / read and replace', () => {
  test('a new publisher has the empty document: defaults', async ({ client, assert }) => {
    const publisher = await createPublisher()
    const response = await client
      .get(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(await operatorKey())
    response.assertStatus(200)
    assert.deepEqual(response.body(), {})
  })

  test('the operator replaces the document: stored, answered, logged, a new rules version', async ({
    client,
    assert,
  }) => {
    const publisher = await publisherWithMethods()
    const key = await operatorKey()

    const response = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(key)
      .json(FULL_DOCUMENT)
    response.assertStatus(200)
    assert.deepEqual(response.body(), FULL_DOCUMENT)

    await publisher.refresh()
    assert.deepEqual(publisher.qualityRules as unknown, FULL_DOCUMENT)
    assert.equal(publisher.qualityRulesVersion, 1)

    const logged = await AccessLogEntry.query()
      .where('subject_id', publisher.id)
      .where('action', 'quality_rules.updated')
      .firstOrFail()
    assert.match(logged.actor, /^api_key:/)
    assert.equal(logged.publisherId, publisher.id)
    assert.deepEqual(logged.details.rules, FULL_DOCUMENT)
    assert.equal(logged.details.rules_version, 1)

    const read = await client.get(`/v1/publishers/${publisher.id}/quality-rules`).bearerToken(key)
    assert.deepEqual(read.body(), FULL_DOCUMENT)

    // A PUT replaces, it does not merge.
    const smaller = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(key)
      .json({ email: { action: 'flag' } })
    smaller.assertStatus(200)
    await publisher.refresh()
    assert.deepEqual(publisher.qualityRules as unknown, { email: { action: 'flag' } })
    assert.equal(publisher.qualityRulesVersion, 2)
  })

  test('saving the same rules again keeps the version and the confirmation; a change voids it', async ({
    client,
    assert,
  }) => {
    const publisher = await publisherWithMethods()
    const key = await operatorKey()
    ;(
      await client.post(`/v1/publishers/${publisher.id}/quality-rules/confirm`).bearerToken(key)
    ).assertStatus(200)

    const same = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(key)
      .json({})
    same.assertStatus(200)
    await publisher.refresh()
    assert.deepEqual(publisher.qualityRules, {})
    assert.equal(publisher.qualityRulesVersion, 0)
    const kept = await client.get(`/v1/publishers/${publisher.id}`).bearerToken(key)
    assert.equal(kept.body().onboarding.step, 'test_in_sandbox')
    assert.isString(kept.body().onboarding.rules_confirmed_at)

    const changed = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(key)
      .json({ phone: { action: 'flag' } })
    changed.assertStatus(200)
    const voided = await client.get(`/v1/publishers/${publisher.id}`).bearerToken(key)
    assert.containSubset(voided.body().onboarding, {
      step: 'confirm_quality_rules',
      rules_version: 1,
      rules_confirmed_at: null,
    })
  })
})

test.group('Quality rules / validation', () => {
  const cases: [string, unknown, string, string][] = [
    [
      'consent switched off',
      { consent: { required: false, action: 'reject' } },
      'consent.required',
      'consent_required',
    ],
    ['consent without action', { consent: { required: true } }, 'consent.action', 'required'],
    [
      'consent too old',
      { consent: { required: true, action: 'reject', max_age_days: 3651 } },
      'consent.max_age_days',
      'range',
    ],
    [
      'unknown field path',
      { required_fields: ['contact.shoe_size'] },
      'required_fields.0',
      'lead_field',
    ],
    [
      'bad attribute key',
      { required_fields: ['attributes.Age'] },
      'required_fields.0',
      'lead_field',
    ],
    [
      'repeated field',
      { required_fields: ['contact.email', 'contact.email'] },
      'required_fields',
      'distinct',
    ],
    ['unknown action', { phone: { action: 'drop' } }, 'phone.action', 'enum'],
    [
      'postal code required as text',
      { postal_code: { required: 'sometimes', action: 'flag' } },
      'postal_code.required',
      'boolean',
    ],
    ['unknown top-level rule', { velocity: { action: 'flag' } }, 'velocity', 'unknown_field'],
    [
      'unknown nested field',
      { email: { action: 'flag', mx_check: true } },
      'email.mx_check',
      'unknown_field',
    ],
    [
      'rules not a list',
      { target_audience: { field: 'attributes.age' } },
      'target_audience',
      'array',
    ],
    [
      'unknown operator',
      { target_audience: [{ field: 'attributes.age', op: 'like', value: 'x', action: 'flag' }] },
      'target_audience.0.op',
      'enum',
    ],
    [
      'criterion without action',
      { target_audience: [{ field: 'attributes.age', op: 'gte', value: 18 }] },
      'target_audience.0.action',
      'required',
    ],
    [
      'criterion without value',
      { target_audience: [{ field: 'attributes.age', op: 'gte', action: 'flag' }] },
      'target_audience.0.value',
      'required',
    ],
    [
      'criterion on unknown field',
      { target_audience: [{ field: 'age', op: 'gte', value: 18, action: 'flag' }] },
      'target_audience.0.field',
      'lead_field',
    ],
    [
      'between reversed',
      {
        target_audience: [
          { field: 'attributes.age', op: 'between', value: [65, 18], action: 'flag' },
        ],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'between one number',
      { target_audience: [{ field: 'attributes.age', op: 'between', value: 18, action: 'flag' }] },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'between strings',
      {
        target_audience: [
          { field: 'attributes.age', op: 'between', value: ['18', '65'], action: 'flag' },
        ],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'in empty',
      { target_audience: [{ field: 'contact.country', op: 'in', value: [], action: 'flag' }] },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'in objects',
      {
        target_audience: [
          { field: 'contact.country', op: 'in', value: [{ a: 1 }], action: 'flag' },
        ],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'in too many',
      {
        target_audience: [
          {
            field: 'contact.country',
            op: 'not_in',
            value: Array.from({ length: 101 }, (_, i) => i),
            action: 'flag',
          },
        ],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'eq a list',
      {
        target_audience: [{ field: 'attributes.product', op: 'eq', value: ['a'], action: 'flag' }],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'gte a string',
      { target_audience: [{ field: 'attributes.age', op: 'gte', value: '18', action: 'flag' }] },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'prefix a number',
      {
        target_audience: [
          { field: 'contact.postal_code', op: 'prefix', value: 10, action: 'flag' },
        ],
      },
      'target_audience.0.value',
      'criterion_value',
    ],
    [
      'duplicates window 0',
      { duplicates: { window_days: 0, keys: ['contact.email'], action: 'reject' } },
      'duplicates.window_days',
      'range',
    ],
    [
      'duplicates window 366',
      { duplicates: { window_days: 366, keys: ['contact.email'], action: 'reject' } },
      'duplicates.window_days',
      'range',
    ],
    [
      'duplicates window fraction',
      { duplicates: { window_days: 1.5, keys: ['contact.email'], action: 'reject' } },
      'duplicates.window_days',
      'withoutDecimals',
    ],
    [
      'duplicates on name',
      { duplicates: { window_days: 7, keys: ['contact.name'], action: 'reject' } },
      'duplicates.keys.0',
      'enum',
    ],
    [
      'duplicates without keys',
      { duplicates: { window_days: 7, keys: [], action: 'reject' } },
      'duplicates.keys',
      'notEmpty',
    ],
  ]

  // Refused documents change nothing, so one publisher serves every case.
  let shared: Promise<[Publisher, string]> | undefined

  test('{title}')
    .with(cases.map(([title, document, field, code]) => ({ title, document, field, code })))
    .run(async ({ client, assert }, { document, field, code }) => {
      shared ??= Promise.all([publisherWithMethods(), operatorKey()])
      const [publisher, key] = await shared
      const before = await databaseState(
        ['access_log'],
        [{ table: 'publishers', id: publisher.id }]
      )

      const response = await client
        .put(`/v1/publishers/${publisher.id}/quality-rules`)
        .bearerToken(key)
        .json(document as object)
      response.assertStatus(422)
      assert.equal(response.body().code, 'validation_failed')
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code]
      )
      assert.deepEqual(
        await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }]),
        before
      )
    })
})

test.group('Quality rules / who may', () => {
  test("a publisher reads its own rules, gets 404 on another's and 403 on changing its own", async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await publisherWithMethods(), await publisherWithMethods()]
    const { secret } = await createKey({ publisherId: mine.id })
    const watched = [
      { table: 'publishers', id: mine.id },
      { table: 'publishers', id: theirs.id },
    ]
    const before = await databaseState(['access_log'], watched)

    const own = await client.get(`/v1/publishers/${mine.id}/quality-rules`).bearerToken(secret)
    own.assertStatus(200)
    assert.deepEqual(own.body(), {})
    ;(
      await client.get(`/v1/publishers/${theirs.id}/quality-rules`).bearerToken(secret)
    ).assertStatus(404)

    const change = await client
      .put(`/v1/publishers/${mine.id}/quality-rules`)
      .bearerToken(secret)
      .json({ email: { action: 'flag' } })
    change.assertStatus(403)
    assert.equal(change.body().code, 'operator_only')
    ;(
      await client.put(`/v1/publishers/${theirs.id}/quality-rules`).bearerToken(secret).json({})
    ).assertStatus(404)
    assert.deepEqual(await databaseState(['access_log'], watched), before)
  })

  test("buyer keys see no publisher's rules", async ({ client, assert }) => {
    const publisher = await publisherWithMethods()
    const { secret } = await createKey({ buyerId: (await createBuyer()).id })
    const before = await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }])
    ;(
      await client.get(`/v1/publishers/${publisher.id}/quality-rules`).bearerToken(secret)
    ).assertStatus(404)
    ;(
      await client.put(`/v1/publishers/${publisher.id}/quality-rules`).bearerToken(secret).json({})
    ).assertStatus(404)
    assert.deepEqual(
      await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }]),
      before
    )
  })

  test('sandbox and read-only operator keys cannot change rules; read-only may read', async ({
    client,
    assert,
  }) => {
    const publisher = await publisherWithMethods()
    const sandbox = await createKey({ environment: 'sandbox' })
    const readOnly = await createKey({ permissions: ['read'] })
    const before = await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }])

    const fromSandbox = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(sandbox.secret)
      .json(FULL_DOCUMENT)
    fromSandbox.assertStatus(403)
    assert.equal(fromSandbox.body().code, 'environment_not_allowed')
    const fromReader = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .bearerToken(readOnly.secret)
      .json(FULL_DOCUMENT)
    fromReader.assertStatus(403)
    assert.equal(fromReader.body().code, 'permission_missing')
    assert.deepEqual(
      await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }]),
      before
    )

    ;(
      await client.get(`/v1/publishers/${publisher.id}/quality-rules`).bearerToken(readOnly.secret)
    ).assertStatus(200)
  })
})
