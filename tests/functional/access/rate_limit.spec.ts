import { test } from '@japa/runner'
import { apiRateLimit } from '#config/limiter'
import { createKey } from '#tests/support/fixtures'

test.group('Rate limits', (group) => {
  const configured = { ...apiRateLimit }
  group.each.teardown(() => {
    Object.assign(apiRateLimit, configured)
  })

  test('each key has its own Redis-backed budget, announced in RateLimit headers; past it, 429 with Retry-After', async ({
    client,
    assert,
  }) => {
    Object.assign(apiRateLimit, { requests: 3, duration: '1 minute' })
    const { secret } = await createKey()
    const other = await createKey()

    const remaining: string[] = []
    for (let i = 0; i < 3; i++) {
      const response = await client.get('/v1/api-keys').bearerToken(secret)
      response.assertStatus(200)
      assert.equal(response.header('ratelimit-limit'), '3')
      remaining.push(String(response.header('ratelimit-remaining')))
    }
    assert.deepEqual(remaining, ['2', '1', '0'])

    const limited = await client.get('/v1/api-keys').bearerToken(secret)
    limited.assertStatus(429)
    assert.equal(limited.body().code, 'rate_limited')
    assert.include(limited.header('content-type'), 'application/problem+json')
    assert.isAbove(Number(limited.header('retry-after')), 0)
    assert.equal(limited.header('ratelimit-remaining'), '0')

    ;(await client.get('/v1/api-keys').bearerToken(other.secret)).assertStatus(200)
  })

  test('the OAuth token endpoint, where client secrets are tried, has a budget per address', async ({
    client,
    assert,
  }) => {
    Object.assign(apiRateLimit, { requests: 2, duration: '1 minute' })
    const wrong = { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'guess' }
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      statuses.push((await client.post('/v1/oauth/token').form(wrong)).status())
    }
    // The first two may be refused as wrong (or limited by earlier tries from this address).
    assert.deepEqual(statuses.slice(2), [429, 429])
    const limited = await client.post('/v1/oauth/token').form(wrong)
    assert.equal(limited.body().code, 'rate_limited')
    assert.isAbove(Number(limited.header('retry-after')), 0)
  })
})
