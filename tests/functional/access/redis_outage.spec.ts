import { test } from '@japa/runner'
import { operatorKey } from '#tests/support/fixtures'
import { startAppProcess } from '#tests/support/app_process'
import { PrivateRedis, eventually } from '#tests/support/webhooks'

const LIMIT = 5

test.group('Rate limits / Redis away', () => {
  test('while its Redis is stopped the server keeps answering and still limits, in memory; it counts in Redis again when Redis is back', async ({
    assert,
    cleanup,
  }) => {
    const redis = await PrivateRedis.start()
    cleanup(() => redis.kill())
    const key = await operatorKey()
    const started = await startAppProcess({
      REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
      API_RATE_LIMIT: String(LIMIT),
      API_RATE_WINDOW: '1 minute',
      LOG_LEVEL: 'warn',
    })
    cleanup(() => started.stop())
    const get = () =>
      fetch(`${started.base}/v1/labels`, { headers: { authorization: `Bearer ${key}` } })

    const counted = await get()
    assert.equal(counted.status, 200, started.log)
    assert.equal(counted.headers.get('ratelimit-remaining'), String(LIMIT - 1))

    await redis.kill()
    const during = []
    for (let i = 0; i < LIMIT + 2; i++) during.push(await get())
    // Answered at once, counted in this process's memory: the limit still holds.
    assert.deepEqual(
      during.map((answer) => answer.status),
      [...Array(LIMIT).fill(200), 429, 429],
      started.log
    )
    assert.equal(during[0].headers.get('ratelimit-limit'), String(LIMIT))
    assert.equal(
      during[LIMIT].headers.get('content-type'),
      'application/problem+json; charset=utf-8'
    )
    assert.isNotNull(during[LIMIT].headers.get('retry-after'))
    // One warning for the outage, not a stack trace per request.
    assert.isAtMost(started.log.split('counting in memory').length - 1, 1, started.log)

    // Back and empty: the count starts afresh in Redis.
    await redis.restart()
    const back = await eventually(
      async () => {
        const answer = await get()
        return answer.status === 200 &&
          answer.headers.get('ratelimit-remaining') === String(LIMIT - 1)
          ? answer
          : null
      },
      'counting in Redis again',
      20_000
    )
    assert.equal(back.status, 200)
  }).timeout(120_000)
})
