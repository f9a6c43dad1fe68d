import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { redisConnection } from '#config/redis'
import { TokenBucket } from '#services/webhooks/rate_limiter'

/**
 * The per-endpoint token bucket (Redis) as the delivery worker uses it: many jobs of one endpoint
 * in flight at once, each asking for a token before it sends.
 */
test.group('Webhooks / the endpoint rate limit', (group) => {
  const redis = new Redis(redisConnection)
  const prefix = `test-bucket-${randomUUID()}`
  const tokensLeft = async (endpointId: string) =>
    Number(await redis.hget(`${prefix}:webhook-rate:${endpointId}`, 'tokens'))
  group.teardown(async () => {
    const keys = await redis.keys(`${prefix}:*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })

  test('jobs in flight together share one trip to Redis instead of each emptying the bucket', async ({
    assert,
  }) => {
    // 200/s with 1 s of burst: a trip takes 10 tokens (50 ms of the rate), the bucket holds 200.
    const bucket = new TokenBucket(redis, prefix, 1)
    const endpointId = randomUUID()
    const waits = await Promise.all(Array.from({ length: 64 }, () => bucket.take(endpointId, 200)))

    assert.deepEqual(
      waits.filter((wait) => wait > 0),
      [],
      'the burst of 200 covers 64 sends at once'
    )
    // Seven trips of 10 tokens; the bucket may have refilled a few over the milliseconds taken.
    // Taking a trip per job instead would have emptied it and sent most of the jobs back to wait.
    const taken = 200 - (await tokensLeft(endpointId))
    assert.isAtMost(taken, 70)
    assert.isAtLeast(taken, 60)
  })

  test('past the burst, the jobs that find no token wait for the rate, and none is granted twice', async ({
    assert,
  }) => {
    // 20/s with 1 s of burst: one token per trip, 20 in the bucket.
    const bucket = new TokenBucket(redis, prefix, 1)
    const endpointId = randomUUID()
    const waits = await Promise.all(Array.from({ length: 30 }, () => bucket.take(endpointId, 20)))

    const sentNow = waits.filter((wait) => wait === 0).length
    assert.isAtLeast(sentNow, 20)
    assert.isAtMost(sentNow, 21, 'a token may refill while the trips run, not more')
    for (const wait of waits.filter((ms) => ms > 0)) {
      assert.isAtMost(wait, 50, 'the next token is one fiftieth of a second away')
    }
  })
})
