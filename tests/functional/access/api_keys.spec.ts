import { test } from '@japa/runner'
import ApiKey from '#models/api_key'
import AccessLogEntry from '#models/access_log_entry'
import { createBuyer, createKey, createPublisher, operatorKey } from '#tests/support/fixtures'

test.group('API keys / lifecycle', () => {
  test('the operator creates a publisher key, shown once, stored hashed, usable at once', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const response = await client
      .post('/v1/api-keys')
      .bearerToken(await operatorKey())
      .json({
        name: 'Acme API',
        publisher_id: publisher.id,
        permissions: ['read', 'submit'],
        environment: 'live',
      })

    response.assertStatus(201)
    const body = response.body()
    assert.match(body.key, /^lg_live_[A-Za-z0-9_-]{43}$/)
    assert.equal(body.owner, 'publisher')
    assert.equal(body.publisher_id, publisher.id)

    const stored = await ApiKey.findOrFail(body.id)
    assert.notInclude(JSON.stringify(stored.$attributes), body.key)
    assert.equal(stored.tokenHash.length, 64)

    const list = await client.get('/v1/api-keys').bearerToken(body.key)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().data.map((key: any) => key.id),
      [body.id]
    )
    assert.notProperty(list.body().data[0], 'key')

    const logged = await AccessLogEntry.query()
      .where('subject_id', body.id)
      .where('action', 'api_key.created')
      .firstOrFail()
    assert.match(logged.actor, /^api_key:/)
  })

  test('sandbox keys carry the sandbox prefix', async ({ client, assert }) => {
    const response = await client
      .post('/v1/api-keys')
      .bearerToken(await operatorKey())
      .json({ name: 'Test', permissions: ['read'], environment: 'sandbox' })
    response.assertStatus(201)
    assert.match(response.body().key, /^lg_test_/)
  })

  test('a revoked key fails on its very next request and last_used_at is tracked', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const { apiKey, secret } = await createKey({ publisherId: publisher.id })

    ;(await client.get('/v1/api-keys').bearerToken(secret)).assertStatus(200)
    await apiKey.refresh()
    assert.isNotNull(apiKey.lastUsedAt)

    const revoke = await client.delete(`/v1/api-keys/${apiKey.id}`).bearerToken(await operatorKey())
    revoke.assertStatus(204)

    const after = await client.get('/v1/api-keys').bearerToken(secret)
    after.assertStatus(401)
    assert.equal(after.body().code, 'credentials_revoked')
    assert.include(after.header('content-type'), 'application/problem+json')
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', apiKey.id)
        .where('action', 'api_key.revoked')
        .first()
    )
  })

  test('keys looked up together are each answered for themselves; a revoked one fails among them', async ({
    client,
    assert,
  }) => {
    const first = await createKey({ publisherId: (await createPublisher()).id })
    const second = await createKey({ publisherId: (await createPublisher()).id })
    const revoked = await createKey({ publisherId: (await createPublisher()).id })
    ;(
      await client.delete(`/v1/api-keys/${revoked.apiKey.id}`).bearerToken(await operatorKey())
    ).assertStatus(204)

    const callers = [first, second, revoked, first, second, revoked, first, second]
    const responses = await Promise.all(
      callers.map((caller) => client.get('/v1/api-keys').bearerToken(caller.secret))
    )
    responses.forEach((response, index) => {
      const caller = callers[index]
      if (caller === revoked) {
        response.assertStatus(401)
        assert.equal(response.body().code, 'credentials_revoked')
        return
      }
      response.assertStatus(200)
      assert.deepEqual(
        response.body().data.map((key: any) => key.id),
        [caller.apiKey.id]
      )
    })
  })

  test('a publisher revokes its own key; another publisher gets 404 and nothing changes', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createPublisher(), await createPublisher()]
    const own = await createKey({ publisherId: mine.id })
    const target = await createKey({ publisherId: mine.id })
    const stranger = await createKey({ publisherId: theirs.id })

    const denied = await client
      .delete(`/v1/api-keys/${target.apiKey.id}`)
      .bearerToken(stranger.secret)
    denied.assertStatus(404)
    await target.apiKey.refresh()
    assert.isNull(target.apiKey.revokedAt)

    ;(await client.delete(`/v1/api-keys/${target.apiKey.id}`).bearerToken(own.secret)).assertStatus(
      204
    )
    await target.apiKey.refresh()
    assert.isNotNull(target.apiKey.revokedAt)
  })

  test('missing, unknown and malformed credentials answer 401 problem+json', async ({
    client,
    assert,
  }) => {
    for (const header of [undefined, 'Bearer lg_live_nope', 'Bearer something-else', 'Basic abc']) {
      const request = client.get('/v1/api-keys')
      if (header) request.header('authorization', header)
      const response = await request
      response.assertStatus(401)
      assert.include(response.header('content-type'), 'application/problem+json')
    }
  })
})

test.group('API keys / scoping', () => {
  test('a publisher key cannot mint keys for others, escalate permissions or go live from sandbox', async ({
    client,
    assert,
  }) => {
    const [mine, theirs] = [await createPublisher(), await createPublisher()]
    const buyer = await createBuyer()
    const readOnly = await createKey({ publisherId: mine.id, permissions: ['read'] })
    const sandbox = await createKey({ publisherId: mine.id, environment: 'sandbox' })
    const before = await ApiKey.query().count('* as total')

    const other = await client
      .post('/v1/api-keys')
      .bearerToken((await createKey({ publisherId: mine.id })).secret)
      .json({ name: 'x', publisher_id: theirs.id, permissions: ['read'], environment: 'live' })
    other.assertStatus(422)
    const forBuyer = await client
      .post('/v1/api-keys')
      .bearerToken((await createKey({ publisherId: mine.id })).secret)
      .json({ name: 'x', buyer_id: buyer.id, permissions: ['read'], environment: 'live' })
    forBuyer.assertStatus(422)

    const escalate = await client
      .post('/v1/api-keys')
      .bearerToken(readOnly.secret)
      .json({ name: 'x', permissions: ['read', 'submit'], environment: 'live' })
    escalate.assertStatus(403)

    const goLive = await client
      .post('/v1/api-keys')
      .bearerToken(sandbox.secret)
      .json({ name: 'x', permissions: ['read'], environment: 'live' })
    goLive.assertStatus(403)
    assert.equal(goLive.body().code, 'environment_not_allowed')

    const after = await ApiKey.query().count('* as total')
    assert.equal(Number(after[0].$extras.total), Number(before[0].$extras.total) + 2)
  })

  test('buyer keys cannot manage keys at all', async ({ client }) => {
    const buyer = await createBuyer()
    const { secret } = await createKey({ buyerId: buyer.id })
    ;(await client.get('/v1/api-keys').bearerToken(secret)).assertStatus(403)
  })

  test('the IP allowlist admits listed IPv4 and IPv6 callers and refuses others with 403', async ({
    client,
    assert,
  }) => {
    const allowed = await createKey({ allowedIps: ['127.0.0.0/8'] })
    ;(await client.get('/v1/api-keys').bearerToken(allowed.secret)).assertStatus(200)

    const elsewhere = await createKey({ allowedIps: ['203.0.113.0/24', '2001:db8::/32'] })
    const refused = await client.get('/v1/api-keys').bearerToken(elsewhere.secret)
    refused.assertStatus(403)
    assert.equal(refused.body().code, 'ip_not_allowed')
    assert.deepEqual(elsewhere.apiKey.allowedIps, ['203.0.113.0/24', '2001:db8::/32'])
  })

  test('a key bound to addresses creates no key that reaches further, and a refusal stores nothing', async ({
    client,
    assert,
  }) => {
    const bound = await createKey({ allowedIps: ['127.0.0.0/8'] })
    const count = async () => (await ApiKey.all()).length
    const before = await count()
    const attempts: (string[] | undefined)[] = [
      undefined,
      ['10.0.0.0/8'],
      ['0.0.0.0/0'],
      ['127.0.0.0/7'],
    ]
    for (const allowedIps of attempts) {
      const refused = await client
        .post('/v1/api-keys')
        .bearerToken(bound.secret)
        .json({
          name: 'wider',
          permissions: ['read'],
          environment: 'live',
          ...(allowedIps ? { allowed_ips: allowedIps } : {}),
        })
      assert.equal(refused.status(), 403, JSON.stringify(allowedIps))
      assert.equal(refused.body().code, 'allowlist_not_allowed')
    }
    assert.equal(await count(), before)

    const narrower = await client
      .post('/v1/api-keys')
      .bearerToken(bound.secret)
      .json({
        name: 'narrower',
        permissions: ['read'],
        environment: 'live',
        allowed_ips: ['127.0.0.1'],
      })
    narrower.assertStatus(201)
    assert.deepEqual(narrower.body().allowed_ips, ['127.0.0.1/32'])
  })
})
