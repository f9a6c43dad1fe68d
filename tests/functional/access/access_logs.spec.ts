import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import {
  createBuyer,
  createKey,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

/** A publisher with a little history: invited, a key, its rules changed and confirmed. */
async function publisherWithHistory(client: any, operator: string) {
  const publisher = await createPublisher()
  const { apiKey, secret } = await createKey({ publisherId: publisher.id })
  await client
    .put(`/v1/publishers/${publisher.id}/quality-rules`)
    .bearerToken(operator)
    .json({ email: { action: 'flag' } })
  await client.post(`/v1/publishers/${publisher.id}/quality-rules/confirm`).bearerToken(secret)
  return { publisher, apiKey, secret }
}

const actions = (response: any) => response.body().data.map((entry: any) => entry.action)

test.group('Access log / reading', () => {
  test('the operator reads every entry, newest first, filtered and a page at a time', async ({
    client,
    assert,
  }) => {
    const operator = await createKey()
    const { publisher, apiKey, secret } = await publisherWithHistory(client, operator.secret)

    const all = await client
      .get('/v1/access-logs')
      .qs({ publisher_id: publisher.id })
      .bearerToken(operator.secret)
    all.assertStatus(200)
    assert.deepEqual(actions(all), [
      'quality_rules.confirmed',
      'quality_rules.updated',
      'api_key.created',
      'publisher.invited',
    ])
    assert.isNull(all.body().next_cursor)
    const [confirmed, updated] = all.body().data
    assert.deepEqual(confirmed, {
      id: confirmed.id,
      actor: `api_key:${apiKey.id}`,
      action: 'quality_rules.confirmed',
      subject_type: 'publisher',
      subject_id: publisher.id,
      publisher_id: publisher.id,
      buyer_id: null,
      details: { rules_version: 1 },
      created_at: confirmed.created_at,
    })
    assert.match(confirmed.id, /^[1-9][0-9]*$/)
    assert.isAbove(Number(confirmed.id), Number(updated.id))
    assert.match(confirmed.created_at, /Z$/)

    const filtered = await client
      .get('/v1/access-logs')
      .qs({
        actor: `api_key:${operator.apiKey.id}`,
        action: 'quality_rules.updated',
        subject_type: 'publisher',
        subject_id: publisher.id,
      })
      .bearerToken(operator.secret)
    assert.deepEqual(
      filtered.body().data.map((entry: any) => entry.id),
      [updated.id]
    )

    const first = await client
      .get('/v1/access-logs')
      .qs({ publisher_id: publisher.id, limit: 3 })
      .bearerToken(operator.secret)
    assert.lengthOf(first.body().data, 3)
    assert.isString(first.body().next_cursor)
    const rest = await client
      .get('/v1/access-logs')
      .qs({ publisher_id: publisher.id, limit: 3, cursor: first.body().next_cursor })
      .bearerToken(operator.secret)
    assert.deepEqual(actions(rest), ['publisher.invited'])
    assert.isNull(rest.body().next_cursor)

    const future = await client
      .get('/v1/access-logs')
      .qs({ publisher_id: publisher.id, from: new Date(Date.now() + 60_000).toISOString() })
      .bearerToken(operator.secret)
    assert.deepEqual(future.body().data, [])
    const past = await client
      .get('/v1/access-logs')
      .qs({ publisher_id: publisher.id, to: '2020-01-01' })
      .bearerToken(operator.secret)
    assert.deepEqual(past.body().data, [])

    // The publisher's own key reads the same entries about itself.
    const own = await client.get('/v1/access-logs').bearerToken(secret)
    assert.deepEqual(actions(own), actions(all))
  })

  test("a publisher reads only entries about itself: another's are not there, even when asked for", async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const mine = await publisherWithHistory(client, operator)
    const theirs = await publisherWithHistory(client, operator)
    const buyer = await createBuyer()
    await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(operator).json({ status: 'paused' })

    const own = await client.get('/v1/access-logs').qs({ limit: 200 }).bearerToken(mine.secret)
    own.assertStatus(200)
    assert.isNotEmpty(own.body().data)
    for (const entry of own.body().data) {
      assert.equal(entry.publisher_id, mine.publisher.id)
      assert.isNull(entry.buyer_id)
    }
    for (const query of [
      { publisher_id: theirs.publisher.id },
      { subject_type: 'publisher', subject_id: theirs.publisher.id },
      { subject_type: 'buyer', subject_id: buyer.id },
    ]) {
      const asked = await client.get('/v1/access-logs').qs(query).bearerToken(mine.secret)
      asked.assertStatus(200)
      assert.deepEqual(asked.body().data, [], JSON.stringify(query))
    }
  })

  test('compliance reads every entry; buyers are refused with 403', async ({ client, assert }) => {
    const operator = await operatorKey()
    const { publisher } = await publisherWithHistory(client, operator)
    const buyer = await createBuyer()

    const refused = await client
      .get('/v1/access-logs')
      .bearerToken((await createKey({ buyerId: buyer.id })).secret)
    refused.assertStatus(403)
    assert.equal(refused.body().code, 'operator_only')

    const log = await app.container.make(AccessLogService)
    const compliance = new Principal('compliance', new Set(['read']), 'live', 'operator:c')
    const page = await log.list(compliance, { publisher_id: publisher.id })
    assert.lengthOf(page.data, 4)
    // A scoped auditor reads the entries about its publishers in its period, and nothing else.
    const scoped = (scope: object) =>
      new Principal('compliance', new Set(['read']), 'live', 'operator:c', null, null, null, scope)
    const within = await log.list(scoped({ publishers: [publisher.slug] }), { limit: 200 })
    assert.sameMembers([...new Set(within.data.map((entry) => entry.publisherId))], [publisher.id])
    const later = scoped({ from: new Date(Date.now() + 60_000).toISOString() })
    assert.deepEqual((await log.list(later, {})).data, [])
    const outsider = new Principal('buyer', new Set(['read']), 'live', 'buyer:b', null, buyer.id)
    assert.deepEqual((await log.list(outsider, {})).data, [])
  })

  test('never personal data: e-mail addresses changed or invited are not in the answer', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const email = `${unique('desk')}@private.example`
    const buyer = await createBuyer()
    await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(operator)
      .json({ contact_email: email })
    const publisher = await createPublisher()

    const entries = await client.get('/v1/access-logs').qs({ limit: 200 }).bearerToken(operator)
    const text = JSON.stringify(entries.body())
    assert.notInclude(text, email)
    assert.notInclude(text, publisher.contactEmail)
  })
})

test.group('Access log / bad queries', () => {
  test('malformed filters and cursors answer 422, never 500', async ({ client, assert }) => {
    const operator = await operatorKey()
    const junkCursor = Buffer.from('not-a-number').toString('base64url')
    const hugeCursor = Buffer.from('99999999999999999999').toString('base64url')
    for (const [query, field] of [
      [{ subject_id: 'not-a-uuid' }, 'subject_id'],
      [{ publisher_id: "1' OR '1'='1" }, 'publisher_id'],
      [{ from: 'yesterday' }, 'from'],
      [{ limit: 0 }, 'limit'],
      [{ cursor: junkCursor }, 'cursor'],
      [{ cursor: hugeCursor }, 'cursor'],
      [{ cursor: 'a uuid cursor?' }, 'cursor'],
      [{ action: 'x'.repeat(65) }, 'action'],
      [{ stray: 1 }, 'stray'],
    ] as const) {
      const response = await client.get('/v1/access-logs').qs(query).bearerToken(operator)
      response.assertStatus(422)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.include(
        response.body().errors.map((error: any) => error.field),
        field,
        JSON.stringify(query)
      )
    }
  })
})
