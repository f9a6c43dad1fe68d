import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  createBuyer,
  createKey,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

const path = (id: string) => `/v1/publishers/${id}/quality-rules/preview`

/** A sample lead as the preview takes it: POST /v1/leads's body without `publisher`. */
function sample(overrides: Record<string, any> = {}) {
  const lead: Partial<ReturnType<typeof leadBody>> = leadBody('unused', overrides)
  delete lead.publisher
  return lead
}

/** A key once used: its first use is recorded on it, which a later snapshot must not count. */
async function used(client: any, key: string) {
  ;(await client.get('/v1/publishers').bearerToken(key)).assertStatus(200)
  return key
}

/** The rows a stored lead would leave behind, counted in the tables it would touch. */
async function countsFor(schemaName: string) {
  const count = async (table: string) => Number((await db.from(table).count('* as total'))[0].total)
  return {
    leads: await count(`${schemaName}.leads`),
    lead_facts: await count('lead_facts'),
    audit_entries: await count('audit.entries'),
    consent_evidence: await count('audit.consent_evidence'),
    outbox_events: await count('outbox_events'),
    idempotency_keys: await count('idempotency_keys'),
    access_log: await count('access_log'),
  }
}

test.group('Quality rules preview / outcomes', () => {
  test('a lead that meets the rules would be accepted', async ({ client, assert }) => {
    const publisher = await createPublisher()
    const response = await client
      .post(path(publisher.id))
      .bearerToken(await operatorKey())
      .json({ rules: { required_fields: ['contact.phone'] }, lead: sample() })

    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      outcome: 'accepted',
      quality_check: { consent: 'valid', target_audience: 'within', duplicate: false },
      reasons: [],
    })
  })

  test('a rule with action "flag" flags the lead, with the reason', async ({ client, assert }) => {
    const publisher = await createPublisher()
    const response = await client
      .post(path(publisher.id))
      .bearerToken(await operatorKey())
      .json({
        rules: { email: { action: 'flag' } },
        lead: sample({ contact: { email: 'not-an-address' } }),
      })

    response.assertStatus(200)
    assert.equal(response.body().outcome, 'flagged')
    assert.deepEqual(
      response.body().reasons.map((reason: any) => [reason.code, reason.field, reason.action]),
      [['invalid_email', 'contact.email', 'flag']]
    )
  })

  test('the rules being edited, not the stored ones, decide', async ({ client, assert }) => {
    // Stored: a lenient document. Tried: an audience of 18 to 75 that rejects.
    const { publisher } = await livePublisher({})
    const response = await client
      .post(path(publisher.id))
      .bearerToken(await operatorKey())
      .json({
        rules: {
          target_audience: [
            { field: 'attributes.age', op: 'between', value: [18, 75], action: 'reject' },
          ],
        },
        lead: sample({ attributes: { age: 17 } }),
      })

    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.outcome, 'rejected')
    assert.equal(body.quality_check.target_audience, 'outside')
    assert.lengthOf(body.reasons, 1)
    assert.equal(body.reasons[0].code, 'outside_target_audience')
    assert.equal(body.reasons[0].field, 'attributes.age')
    assert.include(body.reasons[0].message, 'between 18 and 75')
  })

  test('without rules, the publisher’s current rules decide', async ({ client, assert }) => {
    const { publisher } = await livePublisher({ postal_code: { required: true, action: 'reject' } })
    const lead = sample()
    delete (lead.contact as Record<string, unknown>).postal_code

    const response = await client
      .post(path(publisher.id))
      .bearerToken(await operatorKey())
      .json({ lead })

    response.assertStatus(200)
    assert.equal(response.body().outcome, 'rejected')
    assert.deepEqual(
      response.body().reasons.map((reason: any) => reason.code),
      ['missing_field']
    )
  })

  test('a lead seen before within the window is a duplicate, as intake would find it', async ({
    client,
    assert,
  }) => {
    const rules = { duplicates: { window_days: 30, keys: ['contact.email'], action: 'flag' } }
    const { publisher, key } = await livePublisher(rules)
    const first = leadBody(publisher.slug)
    ;(await client.post('/v1/leads').bearerToken(key).json(first)).assertStatus(201)

    const response = await client
      .post(path(publisher.id))
      .bearerToken(await operatorKey())
      .json({ lead: sample({ contact: { email: first.contact.email.toUpperCase() } }) })

    response.assertStatus(200)
    assert.equal(response.body().outcome, 'flagged')
    assert.isTrue(response.body().quality_check.duplicate)
    assert.deepEqual(
      response.body().reasons.map((reason: any) => reason.code),
      ['duplicate']
    )

    // Duplicates are screened in the caller's environment: sandbox has seen nothing.
    const sandbox = await createKey({ environment: 'sandbox' })
    const inSandbox = await client
      .post(path(publisher.id))
      .bearerToken(sandbox.secret)
      .json({ lead: sample({ contact: { email: first.contact.email } }) })
    inSandbox.assertStatus(200)
    assert.equal(inSandbox.body().outcome, 'accepted')
  })
})

test.group('Quality rules preview / stores nothing', () => {
  test('no lead, facts, audit entry, evidence, event, idempotency row or log entry', async ({
    client,
    assert,
  }) => {
    const rules = { duplicates: { window_days: 30, keys: ['contact.email'], action: 'reject' } }
    const { publisher, key } = await livePublisher(rules)
    // Something to screen against, and an endpoint an event would be staged for.
    ;(await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))).assertStatus(
      201
    )
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: 'http://127.0.0.1:9/hooks', events: ['lead.received', 'consent.recorded'] })
    ).assertStatus(201)

    const operator = await used(client, await operatorKey())
    const before = await countsFor(publisher.schemaName)
    const snapshot = await snapshotDatabase()

    for (const lead of [sample(), sample({ contact: { email: 'broken' } })]) {
      const response = await client
        .post(path(publisher.id))
        .bearerToken(operator)
        .header('Idempotency-Key', randomUUID())
        .json({ lead })
      response.assertStatus(200)
    }
    const own = await client.post(path(publisher.id)).bearerToken(key).json({ lead: sample() })
    own.assertStatus(200)

    assert.deepEqual(await countsFor(publisher.schemaName), before)
    // Nor anywhere else: every table of every schema counts as many rows as before.
    assert.deepEqual(snapshotDifference(snapshot, await snapshotDatabase()), {})
  })
})

test.group('Quality rules preview / validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no lead', { rules: {} }, 'lead'],
    [
      'a rule outside the vocabulary',
      { rules: { consent: { required: false, action: 'reject' } }, lead: sample() },
      'rules.consent.required',
    ],
    ['an unknown field in the rules', { rules: { colour: 'red' }, lead: sample() }, 'rules.colour'],
    [
      'an audience value that does not fit its operator',
      {
        rules: {
          target_audience: [
            { field: 'attributes.age', op: 'between', value: [75, 18], action: 'reject' },
          ],
        },
        lead: sample(),
      },
      'rules.target_audience.0.value',
    ],
    ['a malformed lead', { lead: { ...sample(), contact: { email: 42 } } }, 'lead.contact.email'],
    [
      'another publisher named in the lead',
      { lead: { ...sample(), publisher: 'someone-else' } },
      'lead.publisher',
    ],
  ]

  for (const [name, body, field] of cases) {
    test(`${name} answers 422 naming ${field}`, async ({ client, assert }) => {
      const publisher = await createPublisher()
      const key = await used(client, await operatorKey())
      const before = await snapshotDatabase()
      const response = await client.post(path(publisher.id)).bearerToken(key).json(body)
      const after = await snapshotDatabase()

      response.assertStatus(422)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.include(
        response.body().errors.map((error: any) => error.field),
        field,
        JSON.stringify(response.body().errors)
      )
      assert.deepEqual(snapshotDifference(before, after), {})
    })
  }
})

test.group('Quality rules preview / who may', () => {
  test("another owner's or an unknown publisher answers 404", async ({ client, assert }) => {
    const { publisher: other } = await livePublisher({})
    const mine = await createPublisher()
    const mineKey = (await createKey({ publisherId: mine.id })).secret
    const buyerKey = (await createKey({ buyerId: (await createBuyer()).id })).secret

    for (const [who, key, id] of [
      ['publisher A on B', mineKey, other.id],
      ['a buyer', buyerKey, other.id],
      ['the operator on an unknown id', await operatorKey(), randomUUID()],
    ] as const) {
      const response = await client.post(path(id)).bearerToken(key).json({ lead: sample() })
      assert.equal(response.status(), 404, who)
      assert.equal(response.body().code, 'not_found', who)
    }
  })

  test('a publisher tries its own current rules, not others', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher({ phone: { action: 'flag' } })

    const own = await client
      .post(path(publisher.id))
      .bearerToken(key)
      .json({ lead: sample({ contact: { phone: '12' } }) })
    own.assertStatus(200)
    assert.equal(own.body().outcome, 'flagged')
    assert.equal(own.body().reasons[0].code, 'invalid_phone')

    const proposing = await client
      .post(path(publisher.id))
      .bearerToken(key)
      .json({ rules: {}, lead: sample() })
    proposing.assertStatus(403)
    assert.equal(proposing.body().code, 'operator_only')

    // A submission that stores nothing: it takes the submit permission, as a submission does.
    const reader = (await createKey({ publisherId: publisher.id, permissions: ['read'] })).secret
    const refused = await client
      .post(path(publisher.id))
      .bearerToken(reader)
      .json({ lead: sample() })
    refused.assertStatus(403)
    assert.equal(refused.body().code, 'permission_missing')
  })
})
