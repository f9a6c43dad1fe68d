import { test } from '@japa/runner'
import { redisConnection } from '#config/redis'
import { LiveTransport } from '#services/reports/live_transport'
import { PrivateRedis, eventually } from '#tests/support/webhooks'

/** A transport as transmit's bus uses one: its id set, a channel's messages collected. */
async function listening(connection: Partial<typeof redisConnection>, id: string) {
  const transport = new LiveTransport(connection).setId(id) as LiveTransport
  const heard: unknown[] = []
  await transport.subscribe('live-test', (payload) => heard.push(payload))
  return { transport, heard }
}

test.group('Reports / the live feed between processes', () => {
  test('a broadcast reaches the other processes over Redis, and not its own sender twice', async ({
    assert,
    cleanup,
  }) => {
    const web = await listening(redisConnection, 'web')
    const worker = await listening(redisConnection, 'worker')
    cleanup(async () => {
      await Promise.all([web.transport.disconnect(), worker.transport.disconnect()])
    })
    // Subscribing is asynchronous: publish until the other side hears.
    await eventually(async () => {
      await worker.transport.publish('live-test', { change: 'leads' }).catch(() => {})
      return web.heard.length > 0
    }, 'the web process hearing the worker')
    assert.deepEqual(web.heard[0], { change: 'leads' })
    assert.lengthOf(worker.heard, 0)
  })

  test('with Redis away a publish fails at once, nothing throws, and the feed resumes when it is back', async ({
    assert,
    cleanup,
  }) => {
    const redis = await PrivateRedis.start()
    cleanup(() => redis.kill())
    const connection = { host: '127.0.0.1', port: redis.port, db: 0 }
    await redis.kill()
    // Started while Redis is down: the subscription waits instead of failing.
    const web = await listening(connection, 'web')
    const worker = await listening(connection, 'worker')
    cleanup(async () => {
      await Promise.all([web.transport.disconnect(), worker.transport.disconnect()])
    })
    const started = Date.now()
    await assert.rejects(() => worker.transport.publish('live-test', { change: 'leads' }))
    assert.isBelow(Date.now() - started, 500)

    await redis.restart()
    await eventually(
      async () => {
        await worker.transport.publish('live-test', { change: 'leads' }).catch(() => {})
        return web.heard.length > 0
      },
      'the feed after Redis came back',
      20_000
    )
  }).timeout(40_000)
})
