import { test } from '@japa/runner'
import type { TestContext } from '@japa/runner/core'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import WebhookDelivery from '#models/webhook_delivery'
import WebhookAttempt from '#models/webhook_attempt'
import WebhookEndpoint from '#models/webhook_endpoint'
import { leadBody, livePublisher } from '#tests/support/fixtures'
import {
  type Answer,
  type Received,
  PrivateRedis,
  Receiver,
  compressWebhookClock,
  eventually,
  sleep,
  spawnWorker,
  startRuntime,
} from '#tests/support/webhooks'

type Cleanup = TestContext['cleanup']

/**
 * Fault tests: real receivers on local ports, the real Redis (or a private
 * redis-server the test may stop), the real Postgres, real worker processes.
 */
async function scene(
  client: any,
  cleanup: Cleanup,
  options: {
    events?: string[]
    behaviour?: (r: Received, i: number) => Answer
    clock?: Parameters<typeof compressWebhookClock>[0]
  } = {}
) {
  const restore = compressWebhookClock(options.clock)
  const { publisher, key } = await livePublisher()
  const receiver = await Receiver.start(options.behaviour)
  const created = await client
    .post('/v1/webhook-endpoints')
    .bearerToken(key)
    .json({ url: receiver.url, events: options.events ?? ['lead.received', 'consent.recorded'] })
  created.assertStatus(201)
  cleanup(async () => {
    await receiver.close()
    // Left behind, failing deliveries would keep later tests' workers busy.
    await WebhookEndpoint.query().where('publisher_id', publisher.id).delete()
    restore()
  })
  return { publisher, key, receiver, endpoint: created.body() as { id: string; secret: string } }
}

async function submitLeads(client: any, key: string, slug: string, count: number) {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const response = await client.post('/v1/leads').bearerToken(key).json(leadBody(slug))
    response.assertStatus(201)
    ids.push(response.body().id)
  }
  return ids
}

async function eventIdsOf(leadIds: string[], types = ['lead.received', 'consent.recorded']) {
  const rows = await db
    .from('outbox_events')
    .whereIn('lead_id', leadIds)
    .whereIn('type', types)
    .select('id')
  return rows.map((row) => row.id as string)
}

const deliveriesOf = (endpointId: string) =>
  WebhookDelivery.query().where('endpoint_id', endpointId)

test.group('Webhooks / faults', () => {
  test('a receiver that fails, then recovers, gets every event exactly once per event_id', async ({
    client,
    assert,
    cleanup,
  }) => {
    let healthy = false
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      // Failing: errors, and work done whose answer is lost (the receiver will see those events twice).
      behaviour: (_, index) =>
        healthy ? { status: 204 } : index % 2 ? { reset: true } : { status: 503 },
      clock: (config) => (config.retrySchedule = [0, 150, 300, 450, 600, 800, 1000, 1500]),
    })
    const runtime = await startRuntime()
    cleanup(() => runtime.stop())

    const leads = await submitLeads(client, key, publisher.slug, 10)
    // Enough failures to open the circuit breaker too.
    await eventually(() => receiver.received.length >= 12, 'failed attempts')
    healthy = true
    const expected = await eventIdsOf(leads)
    await eventually(
      async () => (await deliveriesOf(endpoint.id).where('status', 'succeeded')).length === 20,
      'all twenty deliveries',
      25_000
    )

    // After dedupe by event_id: every event, once.
    const seen = new Set(
      [...receiver.processed, ...receiver.answered].map((entry) => entry.json.event_id)
    )
    assert.sameMembers([...seen], expected)
    assert.isAbove(receiver.processed.length, 0)
    const succeededAttempts = await WebhookAttempt.query()
      .where('endpoint_id', endpoint.id)
      .where('succeeded', true)
    assert.lengthOf(succeededAttempts, 20)
    assert.lengthOf(
      new Set(receiver.answered.map((entry) => entry.json.event_id)),
      receiver.answered.length
    )
  })

  test('a receiver answering 410 disables the endpoint and its owner hears endpoint.disabled', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      behaviour: () => ({ status: 410 }),
    })
    const monitor = await Receiver.start()
    cleanup(() => monitor.close())
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: monitor.url, events: ['endpoint.disabled'] })
    ).assertStatus(201)
    const runtime = await startRuntime()
    cleanup(() => runtime.stop())

    await submitLeads(client, key, publisher.slug, 1)
    const notice = await eventually(
      () => monitor.answered.find((entry) => entry.json.type === 'endpoint.disabled'),
      'endpoint.disabled'
    )
    assert.containsSubset(notice.json.data, {
      endpoint_id: endpoint.id,
      status: 'disabled',
      reason: 'gone',
    })

    const stored = await WebhookEndpoint.findOrFail(endpoint.id)
    assert.equal(stored.status, 'disabled')
    assert.equal(stored.disabledReason, 'gone')
    const deliveries = await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id)
      return rows.length === 2 && rows.every((row) => row.status === 'exhausted') && rows
    }, 'both deliveries exhausted')
    // The 410 ends the one that met it; the other ends by the disable, unless it was in flight too.
    assert.include(
      deliveries.map((row) => row.lastError),
      'http_410'
    )
    assert.isTrue(
      deliveries.every((row) => ['http_410', 'endpoint_disabled'].includes(row.lastError!))
    )
    assert.isAtMost(
      receiver.received.filter((entry) => entry.json.type !== 'webhook.ping').length,
      2
    )

    // Nothing more is written for it; a probe still meets 410, so it stays disabled.
    await submitLeads(client, key, publisher.slug, 1)
    await sleep(500)
    assert.lengthOf(await deliveriesOf(endpoint.id), 2)
    assert.equal((await WebhookEndpoint.findOrFail(endpoint.id)).status, 'disabled')
  })

  test('a worker killed mid-delivery: another worker delivers the event again', async ({
    client,
    assert,
    cleanup,
  }) => {
    let answers = 0
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      events: ['lead.received'],
      behaviour: () => (answers++ === 0 ? { hold: true } : { status: 204 }),
    })
    const worker = spawnWorker()
    cleanup(() => void (worker.exitCode === null && worker.kill('SIGKILL')))

    await submitLeads(client, key, publisher.slug, 1)
    await eventually(
      () => receiver.received.length === 1,
      'the worker process to start sending',
      30_000
    )
    const [inFlight] = await deliveriesOf(endpoint.id)
    assert.equal(inFlight.attemptCount, 0)
    assert.isNotNull(inFlight.lockedUntil)

    const exited = new Promise((resolve) => worker.once('exit', resolve))
    worker.kill('SIGKILL')
    await exited

    const runtime = await startRuntime()
    cleanup(() => runtime.stop())
    await eventually(() => receiver.answered.length === 1, 'the redelivery', 20_000)
    assert.equal(receiver.received[1].json.event_id, receiver.received[0].json.event_id)

    const delivery = await eventually(async () => {
      const [row] = await deliveriesOf(endpoint.id)
      return row.status === 'succeeded' && row
    }, 'the delivery recorded')
    assert.equal(delivery.attemptCount, 1)
    const attempts = await WebhookAttempt.query().where('delivery_id', delivery.id)
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.succeeded]),
      [[1, true]]
    )
  })

  test('Redis stopped while leads arrive: leads are accepted, and once Redis is back every event is delivered', async ({
    client,
    assert,
    cleanup,
  }) => {
    const redis = await PrivateRedis.start()
    cleanup(() => redis.kill())
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup)
    // Relay and sweeper now; workers only after the outage, so the first jobs are still in Redis when it dies.
    const relay = await startRuntime({ redis: redis.target, worker: false })
    cleanup(() => relay.stop())

    const before = await submitLeads(client, key, publisher.slug, 2)
    await eventually(
      async () => (await deliveriesOf(endpoint.id).whereNotNull('enqueued_at')).length === 4,
      'four jobs in Redis'
    )
    await redis.kill()

    const during = await submitLeads(client, key, publisher.slug, 3)
    // A relay pass under way marks a batch enqueued until Redis refuses it, then takes the mark back.
    await eventually(
      async () => (await deliveriesOf(endpoint.id).whereNull('enqueued_at')).length === 6,
      'six deliveries waiting for Redis'
    )

    // Back, empty: the jobs it held are gone.
    await redis.restart()
    const workers = await startRuntime({ redis: redis.target, relay: false, sweeper: false })
    cleanup(() => workers.stop())

    const expected = await eventIdsOf([...before, ...during])
    assert.lengthOf(expected, 10)
    await eventually(
      async () => (await deliveriesOf(endpoint.id).where('status', 'succeeded')).length === 10,
      'all ten deliveries',
      25_000
    )
    assert.sameMembers(
      [...new Set(receiver.answered.map((entry) => entry.json.event_id))],
      expected
    )
  })

  test('a URL that resolves to a private address is refused at dial time', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      events: ['lead.received'],
    })
    // Saved while loopback was allowed; `localhost` goes through DNS when dialled.
    const named = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: `http://localhost:${receiver.port}/named`, events: ['lead.received'] })
    named.assertStatus(201)
    const runtime = await startRuntime({ allowPrivate: [] })
    cleanup(() => runtime.stop())

    await submitLeads(client, key, publisher.slug, 1)
    for (const id of [endpoint.id, named.body().id]) {
      const attempt = await eventually(
        () => WebhookAttempt.query().where('endpoint_id', id).first(),
        'an attempt'
      )
      assert.equal(attempt.error, 'ssrf_refused')
      assert.isNull(attempt.statusCode)
      assert.match(attempt.errorDetail!, /127\.0\.0\.1 \(loopback\)|::1 \(loopback\)/)
    }
    await sleep(300)
    assert.lengthOf(receiver.received, 0)
  })

  test('no success for too long: warned, disabled, probed with a signed ping, re-enabled and its outage recovered', async ({
    client,
    assert,
    cleanup,
  }) => {
    let healthy = false
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      behaviour: () => (healthy ? { status: 204 } : { status: 500 }),
      clock: (config) => {
        config.retrySchedule = [0, 150, 300, 450, 600, 800, 1000, 1500, 2000]
        config.health.disableAfterMs = 1500
        config.health.warnBeforeMs = 1000
      },
    })
    const monitor = await Receiver.start()
    cleanup(() => monitor.close())
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({
          url: monitor.url,
          events: ['endpoint.failing', 'endpoint.disabled', 'endpoint.recovered'],
        })
    ).assertStatus(201)
    const runtime = await startRuntime()
    cleanup(() => runtime.stop())

    const [first] = await submitLeads(client, key, publisher.slug, 1)
    const failing = await eventually(
      () => monitor.answered.find((entry) => entry.json.type === 'endpoint.failing'),
      'endpoint.failing'
    )
    assert.equal(failing.json.data.endpoint_id, endpoint.id)
    assert.isString(failing.json.data.disable_at)
    await eventually(
      () => monitor.answered.find((entry) => entry.json.type === 'endpoint.disabled'),
      'endpoint.disabled'
    )
    const disabled = await WebhookEndpoint.findOrFail(endpoint.id)
    assert.equal(disabled.disabledReason, 'failing')

    // Events while disabled get no delivery; the probe brings them anyway once the receiver is back.
    const [second] = await submitLeads(client, key, publisher.slug, 1)
    assert.lengthOf(await deliveriesOf(endpoint.id), 2)
    healthy = true

    await eventually(
      () => monitor.answered.find((entry) => entry.json.type === 'endpoint.recovered'),
      'endpoint.recovered'
    )
    const ping = receiver.answered.find((entry) => entry.json.type === 'webhook.ping')!
    assert.deepEqual(new Webhook(endpoint.secret).verify(ping.body, ping.headers as any), ping.json)
    assert.deepEqual(ping.json.data, { endpoint_id: endpoint.id, reason: 'probe' })

    const expected = await eventIdsOf([first, second])
    await eventually(
      async () => (await deliveriesOf(endpoint.id).where('status', 'succeeded')).length === 4,
      'the outage recovered',
      20_000
    )
    const delivered = new Set(
      receiver.answered
        .filter((entry) => entry.json.type !== 'webhook.ping')
        .map((entry) => entry.json.event_id)
    )
    assert.sameMembers([...delivered], expected)
    assert.equal((await WebhookEndpoint.findOrFail(endpoint.id)).status, 'enabled')
    const task = await db.from('webhook_recoveries').where('endpoint_id', endpoint.id).firstOrFail()
    assert.containsSubset(task, {
      kind: 'recover',
      trigger: 'probe',
      status: 'completed',
      scheduled: 4,
    })
  })

  test('the circuit breaker pauses an endpoint that fails most requests; paused deliveries spend no attempts', async ({
    client,
    assert,
    cleanup,
  }) => {
    let healthy = false
    const { publisher, key, receiver, endpoint } = await scene(client, cleanup, {
      behaviour: () => (healthy ? { status: 204 } : { status: 500 }),
      clock: (config) => {
        config.breaker.minRequests = 4
        config.breaker.cooldownMs = 1500
        config.breaker.maxCooldownMs = 1500
      },
    })
    const runtime = await startRuntime()
    cleanup(() => runtime.stop())

    await submitLeads(client, key, publisher.slug, 3)
    const paused = await eventually(async () => {
      const row = await WebhookEndpoint.findOrFail(endpoint.id)
      return row.status === 'paused' && row
    }, 'the circuit to open')
    const attemptsWhenPaused = receiver.received.length
    const quiet = paused.pausedUntil!.toMillis() - Date.now() - 200
    if (quiet > 0) await sleep(quiet)
    assert.equal(
      receiver.received.length,
      attemptsWhenPaused,
      'no attempts while the circuit is open'
    )

    healthy = true
    await eventually(
      async () => (await deliveriesOf(endpoint.id).where('status', 'succeeded')).length === 6,
      'every delivery once the trial succeeded',
      20_000
    )
    const closed = await WebhookEndpoint.findOrFail(endpoint.id)
    assert.equal(closed.status, 'enabled')
    assert.equal(closed.circuitTrips, 0)
    const rows = await deliveriesOf(endpoint.id)
    assert.isTrue(rows.every((row) => row.attemptCount <= 4))
  })

  test('attempts still in flight when the circuit opens do not count as failed trials', async ({
    client,
    assert,
    cleanup,
  }) => {
    // Slow failures: when the fourth one opens the circuit, the others are still on the wire.
    const { publisher, key, endpoint } = await scene(client, cleanup, {
      behaviour: () => ({ status: 500, delayMs: 600 }),
      clock: (config) => {
        config.breaker.minRequests = 4
        config.breaker.cooldownMs = 5000
        config.breaker.maxCooldownMs = 60_000
      },
    })
    const runtime = await startRuntime({ concurrency: 16 })
    cleanup(() => runtime.stop())

    await submitLeads(client, key, publisher.slug, 5)
    const opened = await eventually(async () => {
      const row = await WebhookEndpoint.findOrFail(endpoint.id)
      return row.status === 'paused' && row
    }, 'the circuit to open')
    // Every attempt sent before the pause has answered by now, and each was recorded.
    await sleep(1500)
    const later = await WebhookEndpoint.findOrFail(endpoint.id)
    const recorded = await db
      .from('webhook_attempts')
      .where('endpoint_id', endpoint.id)
      .count('* as total')
    assert.isAbove(Number(recorded[0].total), 4, 'stragglers failed after the circuit opened')
    assert.equal(later.circuitTrips, 1)
    assert.equal(later.pausedUntil!.toMillis(), opened.pausedUntil!.toMillis())
  })
})
