import { test } from '@japa/runner'
import type { TestContext } from '@japa/runner/core'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import OutboxService from '#services/webhooks/outbox_service'
import WebhookDelivery from '#models/webhook_delivery'
import WebhookAttempt from '#models/webhook_attempt'
import WebhookEndpoint from '#models/webhook_endpoint'
import type { WebhookRuntime } from '#services/webhooks/runtime'
import { guardedFetch } from '#services/webhooks/ssrf_guard'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import {
  type Answer,
  type Received,
  Receiver,
  compressWebhookClock,
  eventually,
  sleep,
  startRuntime,
} from '#tests/support/webhooks'

type Cleanup = TestContext['cleanup']

/** A live publisher, a real receiver, an endpoint pointing at it and a running worker; all undone after the test. */
type WorldOptions = {
  events?: string[]
  behaviour?: (r: Received, i: number) => Answer
  endpoint?: Record<string, unknown>
  runtime?: boolean
  clock?: Parameters<typeof compressWebhookClock>[0]
}

async function world(client: any, cleanup: Cleanup, options: WorldOptions = {}) {
  const restore = compressWebhookClock(options.clock)
  const { publisher, key } = await livePublisher()
  const receiver = await Receiver.start(options.behaviour)
  const created = await client
    .post('/v1/webhook-endpoints')
    .bearerToken(key)
    .json({
      url: receiver.url,
      events: options.events ?? ['lead.received', 'consent.recorded'],
      ...options.endpoint,
    })
  created.assertStatus(201)
  const runtime: WebhookRuntime | null = options.runtime === false ? null : await startRuntime()
  cleanup(async () => {
    await runtime?.stop()
    await receiver.close()
    // Left behind, failing deliveries would keep later tests' workers busy.
    await WebhookEndpoint.query().where('publisher_id', publisher.id).delete()
    restore()
  })
  return {
    publisher,
    key,
    receiver,
    runtime,
    endpoint: created.body() as { id: string; secret: string },
  }
}

async function submitLead(
  client: any,
  key: string,
  slug: string,
  overrides: Record<string, any> = {}
) {
  const response = await client.post('/v1/leads').bearerToken(key).json(leadBody(slug, overrides))
  return response.body().id as string
}

const deliveriesOf = (endpointId: string) =>
  WebhookDelivery.query().where('endpoint_id', endpointId).orderBy('id')

test.group('Webhooks / delivery', () => {
  test('webhooks and adapter calls leave from the configured source address', async ({
    client,
    assert,
    cleanup,
  }) => {
    // Any 127/8 address is this machine's: 127.0.0.2 stands in for a second egress address.
    const { publisher, key, receiver } = await world(client, cleanup, {
      clock: (config) => {
        config.http.sourceAddress = '127.0.0.2'
      },
    })
    await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 2, 'two deliveries')
    assert.deepEqual(
      receiver.received.map((entry) => entry.remoteAddress),
      ['127.0.0.2', '127.0.0.2']
    )
    const adapterCall = await guardedFetch(receiver.url, {
      method: 'POST',
      headers: {},
      body: '{}',
    })
    assert.equal(adapterCall.status, 204)
    assert.equal(receiver.received.at(-1)!.remoteAddress, '127.0.0.2')
  })

  test('without a source address the system picks it', async ({ client, assert, cleanup }) => {
    const { publisher, key, receiver } = await world(client, cleanup)
    await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 2, 'two deliveries')
    assert.equal(receiver.received[0].remoteAddress, '127.0.0.1')
  })

  test('a lead sends signed lead.received and consent.recorded that standardwebhooks verifies', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup)
    const leadId = await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 2, 'two deliveries')

    const verifier = new Webhook(endpoint.secret)
    const byType = Object.fromEntries(receiver.received.map((entry) => [entry.json.type, entry]))
    for (const entry of receiver.received) {
      const event = verifier.verify(entry.body, entry.headers as Record<string, string>) as any
      assert.equal(event.event_id, entry.headers['webhook-id'])
      assert.equal(entry.headers['x-leadgate-event-id'], event.event_id)
      assert.equal(entry.headers['x-leadgate-timestamp'], entry.headers['webhook-timestamp'])
      // The hex header carries the very MAC of the Standard Webhooks header.
      const mac = Buffer.from(
        String(entry.headers['webhook-signature']).slice(3),
        'base64'
      ).toString('hex')
      assert.equal(entry.headers['x-leadgate-signature'], `sha256=${mac}`)
      assert.equal(entry.headers['content-type'], 'application/json')
      assert.deepEqual(Object.keys(event), ['event_id', 'type', 'created', 'data'])
      assert.equal(event.data.lead_id, leadId)
    }
    assert.containsSubset(byType['lead.received'].json.data, {
      status: 'accepted',
      publisher: publisher.slug,
      provenance: { source: 'facebook', campaign: 'winter-2026' },
      consent: { given: true },
    })
    assert.containsSubset(byType['consent.recorded'].json.data.consent, {
      given: true,
      ip: '203.0.113.9',
      text: 'I agree that Demo Energy may contact me about my energy contract.',
    })
    assert.throws(() =>
      new Webhook('whsec_' + Buffer.alloc(32, 7).toString('base64')).verify(
        receiver.received[0].body,
        receiver.received[0].headers as any
      )
    )

    const deliveries = await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id)
      return rows.every((row) => row.status === 'succeeded') && rows.length === 2 && rows
    }, 'both deliveries recorded as succeeded')
    for (const delivery of deliveries) {
      assert.equal(delivery.attemptCount, 1)
      assert.isNull(delivery.nextAttemptAt)
      const attempts = await WebhookAttempt.query().where('delivery_id', delivery.id)
      assert.lengthOf(attempts, 1)
      assert.containsSubset(attempts[0].$attributes, {
        attempt: 1,
        trigger: 'auto',
        succeeded: true,
        statusCode: 204,
      })
    }
    const events = await db.from('outbox_events').where('lead_id', leadId).orderBy('id')
    assert.sameMembers(
      events.map((event) => event.id),
      receiver.received.map((entry) => entry.json.event_id)
    )

    // The delivery log.
    const log = await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).bearerToken(key)
    log.assertStatus(200)
    assert.lengthOf(log.body().data, 2)
    assert.containsSubset(log.body().data[0], {
      endpoint_id: endpoint.id,
      status: 'succeeded',
      attempts: 1,
      last_response_status: 204,
    })
    const filtered = await client
      .get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)
      .bearerToken(key)
      .qs({ type: 'consent.recorded', status: 'succeeded' })
    assert.deepEqual(
      filtered.body().data.map((d: any) => d.type),
      ['consent.recorded']
    )
    assert.lengthOf(
      (
        await client
          .get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)
          .bearerToken(key)
          .qs({ status: 'failed' })
      ).body().data,
      0
    )
    const paged = await client
      .get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)
      .bearerToken(key)
      .qs({ limit: 1 })
    const second = await client
      .get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)
      .bearerToken(key)
      .qs({ limit: 1, cursor: paged.body().next_cursor })
    assert.notEqual(paged.body().data[0].id, second.body().data[0].id)
    const one = await client.get(`/v1/webhook-deliveries/${deliveries[0].id}`).bearerToken(key)
    assert.containsSubset(one.body().attempt_log[0], {
      attempt: 1,
      trigger: 'auto',
      succeeded: true,
      status_code: 204,
    })
  })

  test('rejected leads send nothing; other publishers and sandbox events never reach a live endpoint', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver } = await world(client, cleanup)
    const sandboxReceiver = await Receiver.start()
    cleanup(() => sandboxReceiver.close())
    const sandboxKey = (await createKey({ publisherId: publisher.id, environment: 'sandbox' }))
      .secret
    ;(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(sandboxKey)
        .json({ url: sandboxReceiver.url, events: ['lead.received'] })
    ).assertStatus(201)
    const other = await livePublisher()

    publisher.merge({ qualityRules: { consent: { required: true, action: 'reject' } } as any })
    await publisher.save()
    const rejected = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(publisher.slug, { consent: { given: false } }))
    rejected.assertStatus(422)
    await submitLead(client, other.key, other.publisher.slug)
    const sandboxLead = await submitLead(client, sandboxKey, publisher.slug)
    await eventually(() => sandboxReceiver.answered.length === 1, 'the sandbox delivery')
    await sleep(500)

    assert.lengthOf(receiver.received, 0)
    assert.equal(sandboxReceiver.answered[0].json.data.lead_id, sandboxLead)
  })

  test('operator endpoints hear every publisher; a buyer hears only its own match.found', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver } = await world(client, cleanup, { events: ['lead.received'] })
    const [buyer, otherBuyer] = [await createBuyer(), await createBuyer()]
    const receivers = {
      operator: await Receiver.start(),
      buyer: await Receiver.start(),
      other: await Receiver.start(),
    }
    const operator = await operatorKey()
    const operatorEndpoint = (
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(operator)
        .json({ url: receivers.operator.url, events: ['match.found', 'lead.received'] })
    ).body()
    await client
      .post('/v1/webhook-endpoints')
      .bearerToken((await createKey({ buyerId: buyer.id })).secret)
      .json({ url: receivers.buyer.url, events: ['match.found'] })
    await client
      .post('/v1/webhook-endpoints')
      .bearerToken(operator)
      .json({ url: receivers.other.url, events: ['match.found'], buyer_id: otherBuyer.id })
    cleanup(async () => {
      await WebhookEndpoint.query()
        .where('id', operatorEndpoint.id)
        .orWhereIn('buyer_id', [buyer.id, otherBuyer.id])
        .delete()
      for (const one of Object.values(receivers)) await one.close()
    })

    const leadId = await submitLead(client, key, publisher.slug)
    await db.transaction((trx) =>
      new OutboxService().publish(trx, [
        {
          type: 'match.found',
          publisherId: publisher.id,
          buyerId: buyer.id,
          leadId,
          environment: 'live',
          data: {
            lead_id: leadId,
            buyer_id: buyer.id,
            status: 'matched',
            contact: { name: 'Jan Jansen', email: 'jan@example.nl', phone: '+31612345678' },
            provenance: { source: 'facebook', campaign: 'winter-2026', label: null },
            consent: {
              given: true,
              text: 'I agree.',
              timestamp: new Date().toISOString(),
              ip: '203.0.113.9',
            },
            price_cents: 2500,
            currency: 'EUR',
          },
        },
      ])
    )
    await eventually(
      () =>
        receivers.buyer.answered.length === 1 &&
        receivers.operator.answered.filter((e) => e.json.data.lead_id === leadId).length === 2,
      'match.found and lead.received'
    )
    await sleep(300)
    assert.equal(receivers.buyer.answered[0].json.type, 'match.found')
    assert.equal(receivers.buyer.answered[0].json.data.price_cents, 2500)
    assert.lengthOf(receivers.other.received, 0)
    assert.deepEqual(
      receiver.received.map((entry) => entry.json.type),
      ['lead.received']
    )
  })

  test('a healthy endpoint’s last success is written every 10 s at most; an outage ends at once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      events: ['lead.received'],
    })
    const health = async () => {
      const row = await WebhookEndpoint.findOrFail(endpoint.id)
      return { lastSuccessAt: row.lastSuccessAt?.toMillis(), failingSince: row.failingSince }
    }
    await submitLead(client, key, publisher.slug)
    await eventually(async () => (await health()).lastSuccessAt, 'the first success written')
    const first = (await health()).lastSuccessAt!

    // Seconds later, a second success: nothing new to learn, so no write.
    await sleep(1500)
    await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 2, 'the second delivery')
    await sleep(300)
    assert.equal((await health()).lastSuccessAt, first)

    // An outage, ended by the next success: written at once.
    await db
      .from('webhook_endpoints')
      .where('id', endpoint.id)
      .update({ failing_since: new Date(), consecutive_failures: 3 })
    await submitLead(client, key, publisher.slug)
    const ended = await eventually(async () => {
      const now = await health()
      return now.failingSince === null && now
    }, 'the outage to end')
    assert.isAbove(ended.lastSuccessAt!, first)
  })

  test('a failing delivery is retried on the schedule, every attempt in the log', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      events: ['lead.received'],
      behaviour: (_, index) =>
        index < 2
          ? { status: 500, body: `{"error":"down ${index}"}` }
          : { status: 200, body: 'ok' },
    })
    await submitLead(client, key, publisher.slug)
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id)
      return rows[0]?.status === 'succeeded' && rows
    }, 'the third attempt to succeed')

    assert.equal(delivery.attemptCount, 3)
    assert.lengthOf(new Set(receiver.received.map((entry) => entry.json.event_id)), 1)
    const log = (await client.get(`/v1/webhook-deliveries/${delivery.id}`).bearerToken(key)).body()
      .attempt_log
    assert.deepEqual(
      log.map((a: any) => [a.attempt, a.trigger, a.status_code, a.succeeded]),
      [
        [1, 'auto', 500, false],
        [2, 'auto', 500, false],
        [3, 'auto', 200, true],
      ]
    )
    assert.equal(log[0].response_excerpt, '{"error":"down 0"}')
    assert.equal(log[0].error, 'http_500')
    // 150 ms and 300 ms, ±20%, between the attempts.
    const gaps = [1, 2].map((i) => receiver.received[i].at - receiver.received[i - 1].at)
    assert.isAtLeast(gaps[0], 115)
    assert.isAtLeast(gaps[1], 235)
  })

  test('after a 429 the next attempt waits the minimum, and Retry-After is honoured', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver } = await world(client, cleanup, {
      events: ['lead.received'],
      behaviour: (_, index) =>
        [{ status: 429 }, { status: 503, headers: { 'retry-after': '1' } }, { status: 204 }][
          Math.min(index, 2)
        ],
    })
    await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 1, 'the delivery after a 429 and a 503')
    const [first, second, third] = receiver.received.map((entry) => entry.at)
    assert.isAtLeast(second - first, 390)
    assert.isAtLeast(third - second, 990)
  })

  test('redirects are not followed, timeouts count as attempts, answers are kept up to 20 KB', async ({
    client,
    assert,
    cleanup,
  }) => {
    const elsewhere = await Receiver.start()
    cleanup(() => elsewhere.close())
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      events: ['lead.received'],
      behaviour: (_, index) =>
        [
          { status: 302, headers: { location: elsewhere.url } },
          { hold: true },
          { status: 200, body: 'x'.repeat(100_000) },
        ][Math.min(index, 2)],
    })
    await submitLead(client, key, publisher.slug)
    const delivery = await eventually(
      async () => (await deliveriesOf(endpoint.id)).find((row) => row.status === 'succeeded'),
      'the third attempt',
      20_000
    )
    const attempts = await WebhookAttempt.query()
      .where('delivery_id', delivery.id)
      .orderBy('attempt')
    assert.deepEqual(
      attempts.map((a) => [a.statusCode, a.error]),
      [
        [302, 'http_302'],
        [null, 'timeout'],
        [200, null],
      ]
    )
    assert.lengthOf(elsewhere.received, 0)
    assert.isAtLeast(attempts[1].latencyMs, 1900)
    assert.lengthOf(attempts[2].responseExcerpt!, 20 * 1024)
    assert.lengthOf(receiver.received, 3)
  })

  test('retry resends a delivery now; replay resends an event with the same event_id', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      events: ['lead.received'],
    })
    await submitLead(client, key, publisher.slug)
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id)
      return rows[0]?.status === 'succeeded' && rows
    }, 'the first delivery')

    const retried = await client
      .post(`/v1/webhook-deliveries/${delivery.id}/retry`)
      .bearerToken(key)
    retried.assertStatus(202)
    assert.containsSubset(retried.body(), {
      id: delivery.id,
      status: 'pending',
      next_trigger: 'manual',
    })
    await eventually(() => receiver.answered.length === 2, 'the resend')

    const replayed = await client.post(`/v1/events/${delivery.eventId}/replay`).bearerToken(key)
    replayed.assertStatus(202)
    assert.deepEqual(replayed.body(), { event_id: delivery.eventId, deliveries: 1 })
    await eventually(() => receiver.answered.length === 3, 'the replay')

    assert.deepEqual(receiver.answeredIds(), [delivery.eventId, delivery.eventId, delivery.eventId])
    const log = await eventually(async () => {
      const attempts = (
        await client.get(`/v1/webhook-deliveries/${delivery.id}`).bearerToken(key)
      ).body().attempt_log
      return attempts.length === 3 && attempts
    }, 'three attempts in the log')
    assert.deepEqual(
      log.map((a: any) => a.trigger),
      ['auto', 'manual', 'manual']
    )

    const stranger = await livePublisher()
    ;(
      await client.post(`/v1/events/${delivery.eventId}/replay`).bearerToken(stranger.key)
    ).assertStatus(404)
    ;(
      await client.post(`/v1/webhook-deliveries/${delivery.id}/retry`).bearerToken(stranger.key)
    ).assertStatus(404)
    ;(
      await client.get(`/v1/webhook-deliveries/${delivery.id}`).bearerToken(stranger.key)
    ).assertStatus(404)
  })

  test('exhausted deliveries are listed across endpoints and retried in bulk; recover resends a window', async ({
    client,
    assert,
    cleanup,
  }) => {
    let healthy = false
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      behaviour: () => (healthy ? { status: 204 } : { status: 500 }),
      // Sixteen failures would open the circuit breaker; that has its own test.
      clock: (config) => (config.breaker.minRequests = 100),
    })
    await submitLead(client, key, publisher.slug)
    await submitLead(client, key, publisher.slug)
    await eventually(
      async () =>
        (await deliveriesOf(endpoint.id)).filter((row) => row.status === 'exhausted').length === 4,
      'four exhausted deliveries'
    )
    const exhausted = await client
      .get('/v1/webhook-deliveries')
      .bearerToken(key)
      .qs({ status: 'exhausted' })
    assert.lengthOf(exhausted.body().data, 4)
    assert.equal(exhausted.body().data[0].attempts, 4)
    assert.lengthOf(
      (
        await client
          .get('/v1/webhook-deliveries')
          .bearerToken((await livePublisher()).key)
          .qs({ status: 'exhausted' })
      ).body().data,
      0
    )

    healthy = true
    const task = await client
      .post('/v1/webhook-deliveries/retry')
      .bearerToken(key)
      .json({ type: 'lead.received' })
    task.assertStatus(202)
    assert.containsSubset(task.body(), { kind: 'retry', status: 'queued' })
    const done = await eventually(async () => {
      const body = (
        await client.get(`/v1/webhook-recoveries/${task.body().id}`).bearerToken(key)
      ).body()
      return body.status === 'completed' && body
    }, 'the bulk retry task')
    assert.equal(done.scheduled, 2)
    await eventually(() => receiver.answered.length === 2, 'the two lead.received resends')
    assert.deepEqual(
      receiver.answered.map((entry) => entry.json.type),
      ['lead.received', 'lead.received']
    )

    const recover = await client
      .post(`/v1/webhook-endpoints/${endpoint.id}/recover`)
      .bearerToken(key)
      .json({ since: new Date(Date.now() - 60_000).toISOString() })
    recover.assertStatus(202)
    await eventually(() => receiver.answered.length === 4, 'the two consent.recorded recovered')
    const recovered = (
      await client.get(`/v1/webhook-recoveries/${recover.body().id}`).bearerToken(key)
    ).body()
    assert.containsSubset(recovered, {
      kind: 'recover',
      status: 'completed',
      scheduled: 2,
      endpoint_id: endpoint.id,
    })
    const rows = await deliveriesOf(endpoint.id)
    assert.isTrue(rows.every((row) => row.status === 'succeeded'))
    const triggers = await WebhookAttempt.query()
      .where('endpoint_id', endpoint.id)
      .where('succeeded', true)
      .select('trigger')
    assert.sameMembers(
      triggers.map((row) => row.trigger),
      ['manual', 'manual', 'recover', 'recover']
    )

    const invalid = await client
      .post(`/v1/webhook-endpoints/${endpoint.id}/recover`)
      .bearerToken(key)
      .json({ since: new Date().toISOString(), until: new Date(Date.now() - 1000).toISOString() })
    invalid.assertStatus(422)
    ;(
      await client
        .get(`/v1/webhook-recoveries/${recover.body().id}`)
        .bearerToken((await livePublisher()).key)
    ).assertStatus(404)
  })

  test('during a rotation every delivery carries both signatures, and each secret verifies', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      events: ['lead.received'],
    })
    const rotated = (
      await client.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).bearerToken(key)
    ).body()
    await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 1, 'the delivery')
    const [entry] = receiver.answered
    assert.lengthOf(String(entry.headers['webhook-signature']).split(' '), 2)
    assert.lengthOf(String(entry.headers['x-leadgate-signature']).split(' '), 2)
    for (const secret of [rotated.secret, endpoint.secret]) {
      assert.equal(
        (new Webhook(secret).verify(entry.body, entry.headers as any) as any).event_id,
        entry.json.event_id
      )
    }
  })

  test('a rate-limited endpoint gets its deliveries spread out, without spending attempts', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver, endpoint } = await world(client, cleanup, {
      endpoint: { rate_limit_per_second: 2 },
    })
    for (let i = 0; i < 4; i++) await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 8, 'eight deliveries', 20_000)
    const times = receiver.received.map((entry) => entry.at)
    // A burst of 4 at once, then 2 per second.
    assert.isAtLeast(times[7] - times[0], 1700)
    // The receiver can have answered before the worker has recorded the last answer.
    await eventually(
      async () =>
        (await deliveriesOf(endpoint.id)).every(
          (row) => row.attemptCount === 1 && row.status === 'succeeded'
        ),
      'every delivery succeeded on its first attempt'
    )
  })

  test('a FIFO endpoint receives the events of a lead in order, one at a time', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key, receiver } = await world(client, cleanup, {
      endpoint: { fifo: true },
      behaviour: (entry) =>
        entry.json.type === 'lead.received' &&
        receiver.received.filter((e) => e.json.type === 'lead.received').length < 3
          ? { status: 500 }
          : { status: 204 },
    })
    const leadId = await submitLead(client, key, publisher.slug)
    await eventually(() => receiver.answered.length === 2, 'both events')
    const forLead = receiver.received
      .filter((entry) => entry.json.data.lead_id === leadId)
      .map((entry) => entry.json.type)
    assert.deepEqual(forLead, [
      'lead.received',
      'lead.received',
      'lead.received',
      'consent.recorded',
    ])
  })
})
