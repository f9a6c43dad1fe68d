import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { TestContext } from '@japa/runner/core'
import db from '@adonisjs/lucid/services/db'
import services from '#config/services'
import WebhookEndpoint from '#models/webhook_endpoint'
import { createKey, leadBody } from '#tests/support/fixtures'
import { asAdmin } from '#tests/support/admin_db'
import { startAppProcess } from '#tests/support/app_process'
import { PrivateRedis, Receiver, eventually, sleep, spawnWorker } from '#tests/support/webhooks'
import {
  createRule,
  disableUnscopedRules,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/**
 * The whole pipeline under faults, each part in a process of its own as production runs it:
 * the web server, the worker, a Redis the test owns, the real Postgres, real receivers. Leads
 * arrive under load while something breaks. Afterwards every lead answered 201 is stored with
 * its whole audit trail, is sold, and its events reached their receivers at least once; every
 * other answer was a 503 with Retry-After that the client's retry (same Idempotency-Key)
 * turned into exactly one lead; each lead's trail verifies.
 */
type Cleanup = TestContext['cleanup']
// The sweeper looks every second and takes back a lead whose job Redis lost after two; a dead
// worker's jobs are handed on after two.
const FAST_SWEEP = {
  ROUTING_SWEEP_INTERVAL_SECONDS: '1',
  ROUTING_LOST_AFTER_SECONDS: '2',
  ROUTING_LOCK_SECONDS: '2',
  ROUTING_STALLED_INTERVAL_SECONDS: '1',
}
const WEB_CONNECTIONS = 'leadgate-fault-web'

async function pipeline(cleanup: Cleanup) {
  await disableUnscopedRules()
  const redis = await PrivateRedis.start()
  cleanup(() => redis.kill())
  const redisUrl = `redis://127.0.0.1:${redis.port}/0`
  const { publisher, key } = await routingPublisher()
  const rule = await createRule({ publisherIds: [publisher.id] })
  const operator = (await createKey()).secret
  const [leadReceiver, matchReceiver] = [await Receiver.start(), await Receiver.start()]
  cleanup(async () => {
    await leadReceiver.close()
    await matchReceiver.close()
    // Left behind, deliveries to closed receivers would keep a later test's workers busy.
    await WebhookEndpoint.query()
      .where('publisher_id', publisher.id)
      .orWhere('buyer_id', rule.buyerId)
      .delete()
  })

  const databaseUrl = new URL(services.databaseUrl.href)
  databaseUrl.searchParams.set('application_name', WEB_CONNECTIONS)
  const web = await startAppProcess({
    REDIS_URL: redisUrl,
    DATABASE_URL: databaseUrl.href,
    API_RATE_LIMIT: '100000',
    ...FAST_SWEEP,
  })
  cleanup(() => web.stop())
  const subscribe = async (body: Record<string, unknown>, bearer: string) => {
    const response = await fetch(`${web.base}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status !== 201) throw new Error(`endpoint refused: ${await response.text()}`)
  }
  await subscribe({ url: leadReceiver.url, events: ['lead.received'] }, key)
  await subscribe(
    { url: matchReceiver.url, events: ['match.found'], buyer_id: rule.buyerId },
    operator
  )

  let worker = spawnWorker({ REDIS_URL: redisUrl, ...FAST_SWEEP })
  const startWorker = () => (worker = spawnWorker({ REDIS_URL: redisUrl, ...FAST_SWEEP }))
  cleanup(() => {
    if (worker.exitCode === null) worker.kill('SIGKILL')
  })

  return {
    redis,
    web,
    publisher,
    key,
    operator,
    leadReceiver,
    matchReceiver,
    killWorker: () => worker.kill('SIGKILL'),
    startWorker,
  }
}

type Scene = Awaited<ReturnType<typeof pipeline>>

/**
 * `count` leads, `parallel` at a time, each with its own Idempotency-Key. A 503 is retried
 * (after its Retry-After, shortened) until it is answered; anything else than 201 or 503 is a
 * failure. Returns every lead id answered 201 and every unexpected answer.
 */
async function deliver(scene: Scene, count: number, parallel: number) {
  const accepted = new Set<string>()
  const unexpected: string[] = []
  let retried = 0
  let next = 0
  const one = async () => {
    const idempotencyKey = randomUUID()
    const body = JSON.stringify(leadBody(scene.publisher.slug))
    for (let attempt = 0; attempt < 200; attempt++) {
      const response = await fetch(`${scene.web.base}/v1/leads`, {
        method: 'POST',
        headers: {
          'authorization': `Bearer ${scene.key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body,
      }).catch((error: Error) => error)
      if (response instanceof Error) {
        unexpected.push(`network: ${response.message}`)
        return
      }
      const text = await response.text()
      if (response.status === 201) {
        accepted.add(JSON.parse(text).id)
        return
      }
      if (response.status !== 503 || !response.headers.get('retry-after')) {
        unexpected.push(`${response.status} ${text.slice(0, 200)}`)
        return
      }
      retried++
      await sleep(200)
    }
    unexpected.push('still 503 after 200 tries')
  }
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++
        await one()
      }
    })
  )
  return { accepted: [...accepted], unexpected, retried }
}

/** What must hold after any fault, for every lead answered 201. */
async function assertWhole(scene: Scene, accepted: string[], assert: any, client: any) {
  const facts = await db.from('lead_facts').whereIn('lead_id', accepted).select('lead_id')
  assert.lengthOf(facts, accepted.length, 'every 201 lead is in lead_facts')
  const all = await db.from('lead_facts').where('publisher_id', scene.publisher.id).count('* as n')
  assert.equal(Number(all[0].n), accepted.length, 'no lead stored twice, none stored unanswered')
  const stored = await db
    .from(`pub_${scene.publisher.id.replaceAll('-', '')}.leads`)
    .whereIn('id', accepted)
    .count('* as n')
    .catch(() => null)
  if (stored)
    assert.equal(Number(stored[0].n), accepted.length, 'every 201 lead has its contact row')

  // Each lead's trail: from lead.received to its sale, lead_seq 1.. without a gap.
  const trails = await db
    .from('audit.entries')
    .whereIn('lead_id', accepted)
    .groupBy('lead_id')
    .select('lead_id', db.raw('count(*)::int as n'), db.raw('max(lead_seq)::int as last'))
    .select(db.raw("bool_or(event = 'lead.received') as received"))
    .select(db.raw("bool_or(event = 'lead.delivered') as delivered"))
  await eventually(
    async () => {
      const sold = await db
        .from('lead_facts')
        .whereIn('lead_id', accepted)
        .whereNotNull('buyer_id')
        .count('* as n')
      return Number(sold[0].n) === accepted.length
    },
    'every accepted lead sold',
    60_000
  )
  assert.lengthOf(trails, accepted.length)
  for (const trail of trails) {
    assert.isTrue(trail.received, `${trail.lead_id} has lead.received`)
    assert.equal(trail.n, trail.last, `${trail.lead_id}'s lead_seq has no gap`)
  }

  // Every event reached its receiver at least once.
  const events = await db
    .from('outbox_events')
    .whereIn('lead_id', accepted)
    .whereIn('type', ['lead.received', 'match.found'])
    .select('id', 'type')
  assert.lengthOf(events, accepted.length * 2)
  await eventually(
    () => {
      const heard = new Set([
        ...scene.leadReceiver.answeredIds(),
        ...scene.matchReceiver.answeredIds(),
      ])
      return events.every((event) => heard.has(event.id))
    },
    'every lead.received and match.found delivered',
    60_000
  )

  // Each lead's trail verifies (hashes recomputed, chained from the first entry). The whole
  // log is not asked: other specs tamper with it on purpose in this shared database.
  for (const leadId of accepted) {
    const verified = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: leadId })
      .bearerToken(scene.operator)
    verified.assertStatus(200)
    assert.isTrue(verified.body().valid, `${leadId}'s trail verifies`)
  }
}

test.group('Faults / the whole pipeline in real processes', (group) => {
  group.each.timeout(180_000)

  test('Redis stopped under load and back empty: every accepted lead is sold and delivered', async ({
    assert,
    client,
    cleanup,
  }) => {
    const scene = await pipeline(cleanup)
    const load = deliver(scene, 120, 8)
    await sleep(600)
    await scene.redis.kill()
    await sleep(3000)
    await scene.redis.restart()
    const { accepted, unexpected } = await load

    assert.deepEqual(unexpected, [])
    assert.lengthOf(accepted, 120)
    await assertWhole(scene, accepted, assert, client)
  })

  test('the worker killed with SIGKILL mid-routing: a new worker sells and delivers the rest', async ({
    assert,
    client,
    cleanup,
  }) => {
    const scene = await pipeline(cleanup)
    const load = deliver(scene, 120, 8)
    await eventually(() => scene.matchReceiver.answered.length >= 5, 'the first sales')
    scene.killWorker()
    await sleep(1500)
    scene.startWorker()
    const { accepted, unexpected } = await load

    assert.deepEqual(unexpected, [])
    assert.lengthOf(accepted, 120)
    await assertWhole(scene, accepted, assert, client)
  })

  test('database backends terminated under load: 503 with Retry-After, and the retry stores each lead once', async ({
    assert,
    client,
    cleanup,
  }) => {
    const scene = await pipeline(cleanup)
    const load = deliver(scene, 120, 8)
    const until = Date.now() + 3000
    await sleep(300)
    let terminated = 0
    while (Date.now() < until) {
      terminated += await asAdmin(async (admin) => {
        const { rowCount } = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [WEB_CONNECTIONS]
        )
        return rowCount ?? 0
      })
      await sleep(150)
    }
    const { accepted, unexpected, retried } = await load

    assert.isAbove(terminated, 0, 'the web server lost connections')
    assert.deepEqual(unexpected, [])
    assert.lengthOf(accepted, 120)
    assert.isAbove(retried, 0, 'some answers were 503 and retried')
    await assertWhole(scene, accepted, assert, client)
  })
})
