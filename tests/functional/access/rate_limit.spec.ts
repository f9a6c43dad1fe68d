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
})
