import { test } from '@japa/runner'
import OauthAccessToken from '#models/oauth_access_token'
import OauthClient from '#models/oauth_client'
import AccessLogEntry from '#models/access_log_entry'
import { createPublisher, operatorKey } from '#tests/support/fixtures'

async function newClient(client: any, body: Record<string, unknown>) {
  const response = await client
    .post('/v1/oauth-clients')
    .bearerToken(await operatorKey())
    .json({ name: 'CRM sync', ...body })
  response.assertStatus(201)
  return response.body()
}

test.group('OAuth 2.0 client credentials', () => {
  test('a client exchanges its credentials for a bearer token that acts with its scope', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const created = await newClient(client, {
      publisher_id: publisher.id,
      permissions: ['read'],
      environment: 'live',
    })
    assert.match(created.client_secret, /^lgcs_/)
    const stored = await OauthClient.findOrFail(created.id)
    assert.notEqual(stored.secretHash, created.client_secret)

    const token = await client.post('/v1/oauth/token').form({
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: created.client_secret,
    })
    token.assertStatus(200)
    assert.equal(token.header('cache-control'), 'no-store')
    assert.equal(token.body().token_type, 'Bearer')
    assert.equal(token.body().scope, 'read')
    assert.isAbove(token.body().expires_in, 0)
    assert.match(token.body().access_token, /^lg_at_/)
    assert.equal(
      await OauthAccessToken.query()
        .where('client_id', created.id)
        .count('* as n')
        .then((rows) => Number(rows[0].$extras.n)),
      1
    )

    const own = await client
      .get(`/v1/publishers/${publisher.id}`)
      .bearerToken(token.body().access_token)
    assert.notEqual(own.status(), 401)
    const other = await createPublisher()
    ;(
      await client.get(`/v1/publishers/${other.id}`).bearerToken(token.body().access_token)
    ).assertStatus(404)
    ;(
      await client
        .post('/v1/api-keys')
        .bearerToken(token.body().access_token)
        .json({ name: 'x', permissions: ['read'], environment: 'live' })
    ).assertStatus(403)
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', created.id)
        .where('action', 'oauth_client.created')
        .first()
    )
  })

  test('HTTP Basic client authentication and JSON bodies work too; scope can be narrowed', async ({
    client,
    assert,
  }) => {
    const created = await newClient(client, {
      permissions: ['read', 'submit'],
      environment: 'live',
    })
    const basic = Buffer.from(`${created.client_id}:${created.client_secret}`).toString('base64')
    const token = await client
      .post('/v1/oauth/token')
      .header('authorization', `Basic ${basic}`)
      .json({ grant_type: 'client_credentials', scope: 'read' })
    token.assertStatus(200)
    assert.equal(token.body().scope, 'read')
  })

  test('wrong secret, unknown grant, excess scope and revoked clients are refused as problem+json', async ({
    client,
    assert,
  }) => {
    const created = await newClient(client, { permissions: ['read'], environment: 'sandbox' })
    const wrong = await client.post('/v1/oauth/token').form({
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: 'lgcs_wrong',
    })
    assert.oneOf(wrong.status(), [400, 401])
    assert.equal(wrong.body().error, 'invalid_client')
    assert.include(wrong.header('content-type'), 'application/problem+json')

    const grant = await client.post('/v1/oauth/token').form({
      grant_type: 'password',
      client_id: created.client_id,
      client_secret: created.client_secret,
    })
    grant.assertStatus(400)

    const scope = await client.post('/v1/oauth/token').form({
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: created.client_secret,
      scope: 'submit',
    })
    scope.assertStatus(400)
    assert.equal(scope.body().error, 'invalid_scope')

    const token = (
      await client.post('/v1/oauth/token').form({
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).body().access_token
    ;(await client.get('/v1/api-keys').bearerToken(await operatorKey())).assertStatus(200)
    ;(
      await client.delete(`/v1/oauth-clients/${created.id}`).bearerToken(await operatorKey())
    ).assertStatus(204)
    const revoked = await client.get('/v1/publishers').bearerToken(token)
    revoked.assertStatus(401)
    const again = await client.post('/v1/oauth/token').form({
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: created.client_secret,
    })
    assert.oneOf(again.status(), [400, 401])
  })

  test('an expired access token answers 401 token_expired', async ({ client, assert }) => {
    const created = await newClient(client, { permissions: ['read'], environment: 'live' })
    const token = (
      await client.post('/v1/oauth/token').form({
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).body().access_token
    await OauthAccessToken.query()
      .where('client_id', created.id)
      .update({ expires_at: new Date(Date.now() - 1000) })
    const response = await client.get('/v1/api-keys').bearerToken(token)
    response.assertStatus(401)
    assert.equal(response.body().code, 'token_expired')
  })
})
