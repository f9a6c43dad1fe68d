import { test } from '@japa/runner'
import User from '#models/user'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

test.group('Portal users and roles', () => {
  test('the operator creates users of every role; each grant is logged', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const buyer = await createBuyer()
    const key = await operatorKey()
    for (const body of [
      { role: 'compliance_officer' },
      { role: 'publisher_user', publisher_id: publisher.id, permissions: ['read'] },
      { role: 'buyer_user', buyer_id: buyer.id },
    ]) {
      const email = `${unique('user')}@example.com`
      const response = await client
        .post('/v1/users')
        .bearerToken(key)
        .json({ email, password: 'correct horse battery', ...body })
      response.assertStatus(201)
      assert.notProperty(response.body(), 'password')
      assert.isFalse(response.body().disabled)
      const user = await User.findByOrFail('email', email)
      assert.equal(user.role, body.role)
      assert.exists(
        await AccessLogEntry.query()
          .where('subject_id', user.id)
          .where('action', 'user.created')
          .first()
      )
    }
  })

  test('a role change and a revocation are logged with who, what and when', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const email = `${unique('user')}@example.com`
    const created = await client
      .post('/v1/users')
      .bearerToken(key)
      .json({ email, password: 'correct horse battery', role: 'compliance_officer' })
    const id = created.body().id

    const promote = await client
      .patch(`/v1/users/${id}`)
      .bearerToken(key)
      .json({ role: 'operator_admin' })
    promote.assertStatus(200)
    const entry = await AccessLogEntry.query()
      .where('subject_id', id)
      .where('action', 'user.role_changed')
      .firstOrFail()
    assert.deepEqual(entry.details.role, { from: 'compliance_officer', to: 'operator_admin' })
    assert.match(entry.actor, /^api_key:/)
    assert.isNotNull(entry.createdAt)

    const disable = await client.patch(`/v1/users/${id}`).bearerToken(key).json({ disabled: true })
    disable.assertStatus(200)
    assert.isTrue(disable.body().disabled)
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', id)
        .where('action', 'user.access_changed')
        .first()
    )
  })

  test('a submit-only key creates no user who may read, and grants no read later', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const { secret } = await createKey({ publisherId: publisher.id, permissions: ['submit'] })
    const email = `${unique('u')}@example.com`
    const escalate = await client
      .post('/v1/users')
      .bearerToken(secret)
      .json({
        email,
        password: 'correct horse battery',
        role: 'publisher_user',
        publisher_id: publisher.id,
        permissions: ['read', 'submit'],
      })
    escalate.assertStatus(403)
    assert.isNull(await User.findBy('email', email))

    const operatorMade = await client
      .post('/v1/users')
      .bearerToken(await operatorKey())
      .json({
        email: `${unique('u')}@example.com`,
        password: 'correct horse battery',
        role: 'publisher_user',
        publisher_id: publisher.id,
        permissions: ['submit'],
      })
    operatorMade.assertStatus(201)
    const grant = await client
      .patch(`/v1/users/${operatorMade.body().id}`)
      .bearerToken(secret)
      .json({ permissions: ['read', 'submit'] })
    grant.assertStatus(403)
    const unchanged = await User.findOrFail(operatorMade.body().id)
    assert.deepEqual(unchanged.permissions, ['submit'])
  })

  test('a publisher manages only its own users and cannot hand out other roles', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createPublisher(), await createPublisher()]
    const { secret } = await createKey({ publisherId: mine.id })

    const own = await client
      .post('/v1/users')
      .bearerToken(secret)
      .json({
        email: `${unique('u')}@example.com`,
        password: 'correct horse battery',
        role: 'publisher_user',
        publisher_id: mine.id,
        permissions: ['read'],
      })
    own.assertStatus(201)
    assert.equal(own.body().publisher_id, mine.id)

    const admin = await client
      .post('/v1/users')
      .bearerToken(secret)
      .json({
        email: `${unique('u')}@example.com`,
        password: 'correct horse battery',
        role: 'operator_admin',
      })
    admin.assertStatus(403)

    const foreignUser = await client
      .post('/v1/users')
      .bearerToken(await operatorKey())
      .json({
        email: `${unique('u')}@example.com`,
        password: 'correct horse battery',
        role: 'publisher_user',
        publisher_id: theirs.id,
      })
    const patch = await client
      .patch(`/v1/users/${foreignUser.body().id}`)
      .bearerToken(secret)
      .json({ disabled: true })
    patch.assertStatus(404)
    const untouched = await User.findOrFail(foreignUser.body().id)
    assert.isNull(untouched.disabledAt)

    const list = await client.get('/v1/users').bearerToken(secret)
    assert.deepEqual(
      list.body().data.map((user: any) => user.publisher_id),
      [mine.id]
    )
  })
})
