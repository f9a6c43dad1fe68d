import { test } from '@japa/runner'
import Buyer from '#models/buyer'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

const CATALOGUE = ['buyers', 'access_log']

test.group('Buyers / create and read', () => {
  test('the operator creates a buyer; it is stored, logged, listed and readable', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const older = await createBuyer()
    const name = unique('Buyer')
    const response = await client
      .post('/v1/buyers')
      .bearerToken(key)
      .json({ name, contact_email: 'sales@buyer.example' })

    response.assertStatus(201)
    const body = response.body()
    assert.deepEqual(Object.keys(body).sort(), [
      'contact_email',
      'created_at',
      'duplicate_window_days',
      'id',
      'name',
      'return_window_hours',
      'status',
    ])
    assert.include(body, { name, contact_email: 'sales@buyer.example', status: 'active' })
    // No duplicate window until the operator sets one (docs/scrubbing.md).
    assert.isNull(body.duplicate_window_days)
    // Seven days to return a lead unless the operator says otherwise (docs/money.md).
    assert.equal(body.return_window_hours, 168)

    const stored = await Buyer.findOrFail(body.id)
    assert.equal(stored.name, name)
    assert.equal(stored.contactEmail, 'sales@buyer.example')
    assert.equal(stored.status, 'active')
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', body.id)
        .where('action', 'buyer.created')
        .where('buyer_id', body.id)
        .first()
    )

    const shown = await client.get(`/v1/buyers/${body.id}`).bearerToken(key)
    shown.assertStatus(200)
    assert.deepEqual(shown.body(), body)

    const list = await client.get('/v1/buyers').qs({ limit: 1 }).bearerToken(key)
    list.assertStatus(200)
    assert.deepEqual(list.body().data, [body])
    const next = await client
      .get('/v1/buyers')
      .qs({ limit: 1, cursor: list.body().next_cursor })
      .bearerToken(key)
    assert.equal(next.body().data[0].id, older.id)
  })

  test('invalid fields answer 422 per field and store nothing', async ({ client, assert }) => {
    const key = await operatorKey()
    const before = await databaseState(CATALOGUE)

    const response = await client
      .post('/v1/buyers')
      .bearerToken(key)
      .json({ name: '', contact_email: 'not-an-email', vip: true })
    response.assertStatus(422)
    const fields = Object.fromEntries(
      response.body().errors.map((error: any) => [error.field, error.code])
    )
    assert.equal(fields.name, 'minLength')
    assert.equal(fields.contact_email, 'email')
    assert.equal(fields.vip, 'unknown_field')

    const wrongTypes = await client
      .post('/v1/buyers')
      .bearerToken(key)
      .json({ name: ['x'], contact_email: 5 })
    wrongTypes.assertStatus(422)
    assert.sameMembers(
      wrongTypes.body().errors.map((error: any) => error.field),
      ['name', 'contact_email']
    )

    const tooLong = await client
      .post('/v1/buyers')
      .bearerToken(key)
      .json({ name: 'x'.repeat(201), contact_email: 'a@b.example' })
    tooLong.assertStatus(422)
    assert.equal(tooLong.body().errors[0].field, 'name')
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('an unknown buyer id answers 404', async ({ client }) => {
    ;(
      await client
        .get('/v1/buyers/0190b5a4-0000-7000-8000-000000000000')
        .bearerToken(await operatorKey())
    ).assertStatus(404)
  })
})

test.group('Buyers / who may', () => {
  test('publisher keys get 403 on the collection and 404 on a buyer', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const { secret } = await createKey({ publisherId: (await createPublisher()).id })
    const before = await databaseState(CATALOGUE)

    const create = await client
      .post('/v1/buyers')
      .bearerToken(secret)
      .json({ name: 'X', contact_email: 'x@x.example' })
    create.assertStatus(403)
    assert.equal(create.body().code, 'operator_only')
    ;(await client.get('/v1/buyers').bearerToken(secret)).assertStatus(403)
    ;(await client.get(`/v1/buyers/${buyer.id}`).bearerToken(secret)).assertStatus(404)
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('buyer keys get 403 on the collection and on themselves, 404 on another buyer', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createBuyer(), await createBuyer()]
    const { secret } = await createKey({ buyerId: mine.id })
    const before = await databaseState(CATALOGUE)

    ;(
      await client
        .post('/v1/buyers')
        .bearerToken(secret)
        .json({ name: 'X', contact_email: 'x@x.example' })
    ).assertStatus(403)
    ;(await client.get('/v1/buyers').bearerToken(secret)).assertStatus(403)
    const own = await client.get(`/v1/buyers/${mine.id}`).bearerToken(secret)
    own.assertStatus(403)
    assert.equal(own.body().code, 'operator_only')
    ;(await client.get(`/v1/buyers/${theirs.id}`).bearerToken(secret)).assertStatus(404)
    assert.deepEqual(await databaseState(CATALOGUE), before)
  })

  test('sandbox and read-only operator keys cannot create; read-only may read', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const sandbox = await createKey({ environment: 'sandbox' })
    const readOnly = await createKey({ permissions: ['read'] })
    const before = await databaseState(CATALOGUE)

    const fromSandbox = await client
      .post('/v1/buyers')
      .bearerToken(sandbox.secret)
      .json({ name: 'X', contact_email: 'x@x.example' })
    fromSandbox.assertStatus(403)
    assert.equal(fromSandbox.body().code, 'environment_not_allowed')
    const fromReader = await client
      .post('/v1/buyers')
      .bearerToken(readOnly.secret)
      .json({ name: 'X', contact_email: 'x@x.example' })
    fromReader.assertStatus(403)
    assert.equal(fromReader.body().code, 'permission_missing')
    assert.deepEqual(await databaseState(CATALOGUE), before)

    ;(await client.get('/v1/buyers').bearerToken(readOnly.secret)).assertStatus(200)
    ;(await client.get(`/v1/buyers/${buyer.id}`).bearerToken(readOnly.secret)).assertStatus(200)
  })
})
