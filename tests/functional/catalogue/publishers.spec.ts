import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Publisher from '#models/publisher'
import PublisherInvitation from '#models/publisher_invitation'
import AccessLogEntry from '#models/access_log_entry'
import { digestOf } from '#services/access/secret_token'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'
import { databaseState, publisherSchemaCount } from '#tests/support/database_state'
import { mailTo } from '#tests/support/mailbox'

const CATALOGUE = ['publishers', 'publisher_invitations', 'access_log']

/** Quoted-printable wraps long lines with a trailing "="; undo that before reading the link. */
function invitationTokenIn(raw: string) {
  return /\/invitations\/(inv_[A-Za-z0-9_-]{43})/.exec(raw.replace(/=\r?\n/g, ''))?.[1]
}

test.group('Publishers / invite', () => {
  test('the operator invites a publisher: row, schema with leads table, invitation mail, access log', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const slug = unique('acme')
    const email = `${slug}@acme.example`
    const response = await client
      .post('/v1/publishers')
      .bearerToken(await operatorKey())
      .json({ slug, name: 'Acme Media', contact_email: email, label: label.slug, country: 'be' })

    response.assertStatus(201)
    const body = response.body()
    assert.containSubset(body, {
      slug,
      name: 'Acme Media',
      label: label.slug,
      status: 'invited',
      onboarding: { step: 'choose_delivery_method' },
      contact_email: email,
      country: 'BE',
      delivery_methods: [],
    })
    assert.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/)
    assert.match(body.created_at, /Z$/)

    const stored = await Publisher.findOrFail(body.id)
    assert.equal(stored.labelId, label.id)
    assert.equal(stored.country, 'BE')
    assert.equal(stored.schemaName, `pub_${body.id.replaceAll('-', '')}`)
    assert.deepEqual(stored.qualityRules, {})

    const tables = await db
      .from('information_schema.tables')
      .where('table_schema', stored.schemaName)
      .select('table_name')
    assert.include(
      tables.map((row) => row.table_name),
      'leads'
    )

    const mails = mailTo(email)
    assert.lengthOf(mails, 1)
    assert.include(mails[0].raw, 'Acme Media')
    const token = invitationTokenIn(mails[0].raw)
    assert.isString(token, 'the mail carries the invitation link')
    const invitation = await PublisherInvitation.query()
      .where('publisher_id', body.id)
      .firstOrFail()
    assert.equal(invitation.tokenHash, digestOf(token!))
    assert.equal(invitation.email, email)

    const logged = await AccessLogEntry.query()
      .where('subject_id', body.id)
      .where('action', 'publisher.invited')
      .firstOrFail()
    assert.match(logged.actor, /^api_key:/)
  })

  test('label and country are optional: no label, country NL', async ({ client, assert }) => {
    const slug = unique('solo')
    const response = await client
      .post('/v1/publishers')
      .bearerToken(await operatorKey())
      .json({ slug, name: 'Solo', contact_email: `${slug}@solo.example` })
    response.assertStatus(201)
    assert.isNull(response.body().label)
    assert.equal(response.body().country, 'NL')
    assert.isNull((await Publisher.findOrFail(response.body().id)).labelId)
  })

  test('a taken slug answers 409 slug_taken: no row, no schema, no second mail', async ({
    client,
    assert,
  }) => {
    const existing = await createPublisher()
    const key = await operatorKey()
    const before = await databaseState(CATALOGUE)
    const schemas = await publisherSchemaCount()

    const email = `${unique('again')}@x.example`
    const response = await client
      .post('/v1/publishers')
      .bearerToken(key)
      .json({ slug: existing.slug, name: 'Again', contact_email: email })
    response.assertStatus(409)
    assert.equal(response.body().code, 'slug_taken')
    assert.deepEqual(await databaseState(CATALOGUE), before)
    assert.equal(await publisherSchemaCount(), schemas)
    assert.lengthOf(mailTo(email), 0)
  })

  test('invalid fields and an unknown label answer 422 per field and create nothing', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const before = await databaseState(CATALOGUE)
    const schemas = await publisherSchemaCount()

    const response = await client.post('/v1/publishers').bearerToken(key).json({
      slug: 'UPPER case',
      name: true,
      contact_email: 'nobody',
      country: 'NLD',
      status: 'live',
    })
    response.assertStatus(422)
    const fields = Object.fromEntries(
      response.body().errors.map((error: any) => [error.field, error.code])
    )
    assert.equal(fields.slug, 'regex')
    assert.equal(fields.name, 'string')
    assert.equal(fields.contact_email, 'email')
    assert.equal(fields.country, 'regex')
    assert.equal(fields.status, 'unknown_field')

    const unknownLabel = await client
      .post('/v1/publishers')
      .bearerToken(key)
      .json({ slug: unique('p'), name: 'P', contact_email: 'p@p.example', label: 'no-such-label' })
    unknownLabel.assertStatus(422)
    assert.deepEqual(
      unknownLabel.body().errors.map((error: any) => [error.field, error.code]),
      [['label', 'exists']]
    )

    assert.deepEqual(await databaseState(CATALOGUE), before)
    assert.equal(await publisherSchemaCount(), schemas)
  })
})

test.group('Publishers / read', () => {
  test('the operator lists every publisher with filters; a publisher key lists only itself', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const [a, b] = [await createPublisher({ label: label.slug }), await createPublisher()]
    const operator = await operatorKey()

    const all = await client.get('/v1/publishers').qs({ limit: 200 }).bearerToken(operator)
    all.assertStatus(200)
    assert.includeMembers(
      all.body().data.map((publisher: any) => publisher.id),
      [a.id, b.id]
    )

    const byLabel = await client
      .get('/v1/publishers')
      .qs({ label: label.slug })
      .bearerToken(operator)
    assert.deepEqual(
      byLabel.body().data.map((publisher: any) => publisher.id),
      [a.id]
    )
    assert.equal(byLabel.body().data[0].label, label.slug)
    assert.isNull(byLabel.body().next_cursor)

    const paged = await client.get('/v1/publishers').qs({ limit: 1 }).bearerToken(operator)
    assert.deepEqual(
      paged.body().data.map((publisher: any) => publisher.id),
      [b.id]
    )
    const next = await client
      .get('/v1/publishers')
      .qs({ limit: 1, cursor: paged.body().next_cursor })
      .bearerToken(operator)
    assert.deepEqual(
      next.body().data.map((publisher: any) => publisher.id),
      [a.id]
    )

    const own = await createKey({ publisherId: a.id, permissions: ['read'] })
    const mine = await client.get('/v1/publishers').bearerToken(own.secret)
    mine.assertStatus(200)
    assert.deepEqual(
      mine.body().data.map((publisher: any) => publisher.id),
      [a.id]
    )
  })

  test('a publisher reads itself (200) but not another publisher (404); buyer keys see none', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createPublisher(), await createPublisher()]
    const { secret } = await createKey({ publisherId: mine.id })

    const own = await client.get(`/v1/publishers/${mine.id}`).bearerToken(secret)
    own.assertStatus(200)
    assert.equal(own.body().slug, mine.slug)
    assert.equal(own.body().onboarding.step, 'choose_delivery_method')

    const other = await client.get(`/v1/publishers/${theirs.id}`).bearerToken(secret)
    other.assertStatus(404)
    assert.equal(other.body().code, 'not_found')

    const buyerKey = await createKey({ buyerId: (await createBuyer()).id })
    ;(await client.get('/v1/publishers').bearerToken(buyerKey.secret)).assertStatus(403)
    ;(await client.get(`/v1/publishers/${mine.id}`).bearerToken(buyerKey.secret)).assertStatus(404)
  })
})

test.group('Publishers / update', () => {
  test('the operator renames, sets delivery methods and goes live once the rules are confirmed; onboarding follows', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const key = await operatorKey()

    const methods = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(key)
      .json({ delivery_methods: ['api', 'form'] })
    methods.assertStatus(200)
    assert.deepEqual(methods.body().delivery_methods, ['api', 'form'])
    assert.equal(methods.body().onboarding.step, 'confirm_quality_rules')

    const unconfirmed = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(key)
      .json({ name: 'Renamed', status: 'live' })
    unconfirmed.assertStatus(409)
    assert.equal(unconfirmed.body().code, 'rules_not_confirmed')
    ;(
      await client.post(`/v1/publishers/${publisher.id}/quality-rules/confirm`).bearerToken(key)
    ).assertStatus(200)

    const live = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(key)
      .json({ name: 'Renamed', status: 'live' })
    live.assertStatus(200)
    assert.containSubset(live.body(), {
      name: 'Renamed',
      status: 'live',
      onboarding: { step: 'monitor' },
    })

    await publisher.refresh()
    assert.equal(publisher.name, 'Renamed')
    assert.equal(publisher.status, 'live')
    assert.deepEqual(publisher.deliveryMethods, ['api', 'form'])
    assert.isNotNull(publisher.wentLiveAt)
    const logged = await AccessLogEntry.query()
      .where('subject_id', publisher.id)
      .where('action', 'publisher.updated')
    assert.lengthOf(logged, 2)
  })

  test('bad status, delivery methods and types answer 422 and change nothing', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const key = await operatorKey()
    const before = await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }])

    for (const [body, field, code] of [
      [{ status: 'invited' }, 'status', 'enum'],
      [{ status: 'archived' }, 'status', 'enum'],
      [{ delivery_methods: ['fax'] }, 'delivery_methods.0', 'enum'],
      [{ delivery_methods: ['api', 'api'] }, 'delivery_methods', 'distinct'],
      [{ delivery_methods: 'api' }, 'delivery_methods', 'array'],
      [{ name: '' }, 'name', 'minLength'],
      [{ slug: 'new-slug' }, 'slug', 'unknown_field'],
    ] as const) {
      const response = await client
        .patch(`/v1/publishers/${publisher.id}`)
        .bearerToken(key)
        .json(body)
      response.assertStatus(422)
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code],
        JSON.stringify(body)
      )
    }
    assert.deepEqual(
      await databaseState(['access_log'], [{ table: 'publishers', id: publisher.id }]),
      before
    )
  })

  test('a publisher chooses its own delivery methods but nothing else, and never for another', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createPublisher(), await createPublisher()]
    const { secret } = await createKey({ publisherId: mine.id })
    const watched = [
      { table: 'publishers', id: mine.id },
      { table: 'publishers', id: theirs.id },
    ]
    const before = await databaseState(['access_log'], watched)

    const status = await client
      .patch(`/v1/publishers/${mine.id}`)
      .bearerToken(secret)
      .json({ status: 'live' })
    status.assertStatus(403)
    assert.equal(status.body().code, 'operator_only')
    ;(
      await client
        .patch(`/v1/publishers/${theirs.id}`)
        .bearerToken(secret)
        .json({ delivery_methods: ['api'] })
    ).assertStatus(404)
    assert.deepEqual(await databaseState(['access_log'], watched), before)

    const choose = await client
      .patch(`/v1/publishers/${mine.id}`)
      .bearerToken(secret)
      .json({ delivery_methods: ['upload'] })
    choose.assertStatus(200)
    assert.equal(choose.body().onboarding.step, 'confirm_quality_rules')
    await mine.refresh()
    assert.deepEqual(mine.deliveryMethods, ['upload'])
  })

  test('a publisher cannot set itself live through the query string or an empty body', async ({
    client,
    assert,
  }) => {
    const mine = await createPublisher()
    const { secret } = await createKey({ publisherId: mine.id })
    const watched = [{ table: 'publishers', id: mine.id }]
    const before = await databaseState(['access_log'], watched)

    const viaQuery = await client
      .patch(`/v1/publishers/${mine.id}?status=live&name=Approved`)
      .bearerToken(secret)
      .json({})
    viaQuery.assertStatus(400)
    assert.equal(viaQuery.header('content-type'), 'application/problem+json; charset=utf-8')
    assert.equal(viaQuery.body().code, 'query_not_allowed')

    const mixed = await client
      .patch(`/v1/publishers/${mine.id}?status=live`)
      .bearerToken(secret)
      .json({ delivery_methods: ['api'] })
    mixed.assertStatus(400)

    const inBody = await client
      .patch(`/v1/publishers/${mine.id}`)
      .bearerToken(secret)
      .json({ delivery_methods: ['api'], status: 'live' })
    inBody.assertStatus(403)
    assert.equal(inBody.body().code, 'operator_only')

    assert.deepEqual(await databaseState(['access_log'], watched), before)
    await mine.refresh()
    assert.equal(mine.status, 'invited')
  })

  test('sandbox and read-only operator keys cannot create or change publishers', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const sandbox = await createKey({ environment: 'sandbox' })
    const readOnly = await createKey({ permissions: ['read'] })
    const before = await databaseState(CATALOGUE, [{ table: 'publishers', id: publisher.id }])
    const schemas = await publisherSchemaCount()
    const slug = unique('nope')

    for (const { secret, code } of [
      { secret: sandbox.secret, code: 'environment_not_allowed' },
      { secret: readOnly.secret, code: 'permission_missing' },
    ]) {
      const create = await client
        .post('/v1/publishers')
        .bearerToken(secret)
        .json({ slug, name: 'N', contact_email: `${slug}@x.example` })
      create.assertStatus(403)
      assert.equal(create.body().code, code)
      const update = await client
        .patch(`/v1/publishers/${publisher.id}`)
        .bearerToken(secret)
        .json({ status: 'live' })
      update.assertStatus(403)
      assert.equal(update.body().code, code)
    }
    assert.deepEqual(
      await databaseState(CATALOGUE, [{ table: 'publishers', id: publisher.id }]),
      before
    )
    assert.equal(await publisherSchemaCount(), schemas)
    assert.lengthOf(mailTo(`${slug}@x.example`), 0)

    ;(await client.get(`/v1/publishers/${publisher.id}`).bearerToken(readOnly.secret)).assertStatus(
      200
    )
  })

  test('publisher and buyer keys cannot create publishers', async ({ client, assert }) => {
    const publisher = await createPublisher()
    const keys = [
      await createKey({ publisherId: publisher.id }),
      await createKey({ buyerId: (await createBuyer()).id }),
    ]
    const before = await databaseState(CATALOGUE)
    for (const { secret } of keys) {
      const slug = unique('nope')
      const response = await client
        .post('/v1/publishers')
        .bearerToken(secret)
        .json({ slug, name: 'N', contact_email: `${slug}@x.example` })
      response.assertStatus(403)
      assert.equal(response.body().code, 'operator_only')
    }
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })
})
