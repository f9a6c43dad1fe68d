import { test } from '@japa/runner'
import Label from '#models/label'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

const CATALOGUE = ['labels', 'access_log']

test.group('Labels / create and read', () => {
  test('the operator creates a label with branding; it is stored, logged and readable', async ({
    client,
    assert,
  }) => {
    const slug = unique('brand')
    const response = await client
      .post('/v1/labels')
      .bearerToken(await operatorKey())
      .json({
        slug,
        name: 'Brand A',
        branding: { logo_url: 'https://cdn.example.com/a.png', primary_color: '#1A2B3C' },
      })

    response.assertStatus(201)
    const body = response.body()
    assert.properties(body, ['id', 'slug', 'name', 'branding', 'created_at'])
    assert.equal(body.slug, slug)
    assert.equal(body.name, 'Brand A')
    assert.deepEqual(body.branding, {
      logo_url: 'https://cdn.example.com/a.png',
      primary_color: '#1a2b3c',
    })
    assert.match(body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

    const stored = await Label.findOrFail(body.id)
    assert.equal(stored.slug, slug)
    assert.deepEqual(stored.branding, {
      logo_url: 'https://cdn.example.com/a.png',
      primary_color: '#1a2b3c',
    })
    const logged = await AccessLogEntry.query()
      .where('subject_id', body.id)
      .where('action', 'label.created')
      .firstOrFail()
    assert.match(logged.actor, /^api_key:/)

    const shown = await client.get(`/v1/labels/${body.id}`).bearerToken(await operatorKey())
    shown.assertStatus(200)
    assert.deepEqual(shown.body(), body)
  })

  test('branding is optional and defaults to an empty object', async ({ client, assert }) => {
    const response = await client
      .post('/v1/labels')
      .bearerToken(await operatorKey())
      .json({ slug: unique('plain'), name: 'Plain' })
    response.assertStatus(201)
    assert.deepEqual(response.body().branding, {})
    assert.deepEqual((await Label.findOrFail(response.body().id)).branding, {})
  })

  test('a taken slug answers 409 slug_taken and stores nothing', async ({ client, assert }) => {
    const existing = await createLabel()
    const key = await operatorKey()
    const before = await databaseState(CATALOGUE)
    const response = await client
      .post('/v1/labels')
      .bearerToken(key)
      .json({ slug: existing.slug, name: 'Again' })
    response.assertStatus(409)
    assert.equal(response.body().code, 'slug_taken')
    assert.include(response.header('content-type'), 'application/problem+json')
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('invalid fields answer 422 with one error per field and store nothing', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const before = await databaseState(CATALOGUE)
    const response = await client
      .post('/v1/labels')
      .bearerToken(key)
      .json({
        slug: 'Not A Slug',
        name: 42,
        colour: 'red',
        branding: { logo_url: 'ftp://cdn.example.com/a.png', primary_color: 'red', font: 'Arial' },
      })
    response.assertStatus(422)
    assert.equal(response.body().code, 'validation_failed')
    const fields = Object.fromEntries(
      response.body().errors.map((error: any) => [error.field, error.code])
    )
    assert.equal(fields.slug, 'regex')
    assert.equal(fields.name, 'string')
    assert.equal(fields.colour, 'unknown_field')
    assert.equal(fields['branding.font'], 'unknown_field')
    assert.equal(fields['branding.logo_url'], 'url')
    assert.equal(fields['branding.primary_color'], 'regex')

    const missing = await client.post('/v1/labels').bearerToken(key).json({})
    missing.assertStatus(422)
    assert.sameMembers(
      missing.body().errors.map((error: any) => error.field),
      ['slug', 'name']
    )
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('the list pages newest first with an opaque cursor', async ({ client, assert }) => {
    const key = await operatorKey()
    const [a, b, c] = [await createLabel(), await createLabel(), await createLabel()]

    const first = await client.get('/v1/labels').qs({ limit: 2 }).bearerToken(key)
    first.assertStatus(200)
    assert.deepEqual(
      first.body().data.map((label: any) => label.id),
      [c.id, b.id]
    )
    assert.isString(first.body().next_cursor)
    assert.notInclude(first.body().next_cursor, b.id)

    const second = await client
      .get('/v1/labels')
      .qs({ limit: 2, cursor: first.body().next_cursor })
      .bearerToken(key)
    second.assertStatus(200)
    assert.equal(second.body().data[0].id, a.id)

    const everything = await client.get('/v1/labels').qs({ limit: 200 }).bearerToken(key)
    assert.includeMembers(
      everything.body().data.map((label: any) => label.id),
      [a.id, b.id, c.id]
    )

    for (const qs of [{ cursor: 'not-a-cursor' }, { limit: 0 }, { limit: 201 }, { sort: 'name' }]) {
      const bad = await client.get('/v1/labels').qs(qs).bearerToken(key)
      bad.assertStatus(422)
    }
  })

  test('an unknown label id answers 404', async ({ client }) => {
    const response = await client
      .get('/v1/labels/0190b5a4-0000-7000-8000-000000000000')
      .bearerToken(await operatorKey())
    response.assertStatus(404)
  })
})

test.group('Labels / who may', () => {
  test('publisher and buyer keys get 403 on the collection and 404 on a label', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const publisher = await createPublisher()
    const buyer = await createBuyer()
    const keys = [
      await createKey({ publisherId: publisher.id }),
      await createKey({ buyerId: buyer.id }),
    ]
    const before = await databaseState(CATALOGUE)

    for (const { secret } of keys) {
      const create = await client
        .post('/v1/labels')
        .bearerToken(secret)
        .json({ slug: unique('x'), name: 'X' })
      create.assertStatus(403)
      assert.equal(create.body().code, 'operator_only')
      const list = await client.get('/v1/labels').bearerToken(secret)
      list.assertStatus(403)
      ;(await client.get(`/v1/labels/${label.id}`).bearerToken(secret)).assertStatus(404)
    }
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('sandbox operator keys and read-only operator keys cannot create; read-only may list', async ({
    client,
    assert,
  }) => {
    const sandbox = await createKey({ environment: 'sandbox' })
    const readOnly = await createKey({ permissions: ['read'] })
    const before = await databaseState(CATALOGUE)

    const fromSandbox = await client
      .post('/v1/labels')
      .bearerToken(sandbox.secret)
      .json({ slug: unique('x'), name: 'X' })
    fromSandbox.assertStatus(403)
    assert.equal(fromSandbox.body().code, 'environment_not_allowed')

    const fromReader = await client
      .post('/v1/labels')
      .bearerToken(readOnly.secret)
      .json({ slug: unique('x'), name: 'X' })
    fromReader.assertStatus(403)
    assert.equal(fromReader.body().code, 'permission_missing')
    assert.deepEqual(await databaseState(CATALOGUE), before)

    ;(await client.get('/v1/labels').bearerToken(readOnly.secret)).assertStatus(200)
  })
})
