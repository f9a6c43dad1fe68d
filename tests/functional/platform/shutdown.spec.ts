import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { leadBody, livePublisher } from '#tests/support/fixtures'
import { startAppProcess } from '#tests/support/app_process'
import TenancyService from '#services/platform/tenancy_service'
import { closeRoutingQueues } from '#services/routing/routing_queue'
import { queuedForRouting } from '#tests/support/routing_jobs'
import { childrenOf, running } from '#tests/support/processes'

/** 'exited' once the server has, or 'still running' after `ms`. */
function exitWithin(exited: Promise<unknown>, ms: number) {
  return Promise.race([
    exited.then(() => 'exited'),
    new Promise((resolve) => setTimeout(() => resolve('still running'), ms)),
  ])
}

/**
 * A deploy stops the web process with SIGTERM while publishers are still
 * delivering. It must exit (not hang until it is killed), and every lead it
 * answered 201 must be stored.
 */
test.group('Shutdown', (group) => {
  group.teardown(() => closeRoutingQueues())

  test('SIGTERM while leads are in flight: the server exits and every accepted lead is kept', async ({
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const started = await startAppProcess({ API_RATE_LIMIT: '100000' })
    const { server, base } = started
    // The server's own account, for the assertion messages: a failure here must say why.
    const log = () => started.log
    try {
      const deliver = () =>
        fetch(`${base}/v1/leads`, {
          method: 'POST',
          headers: { 'authorization': `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(leadBody(publisher.slug)),
        })
          .then(async (response) => ({
            status: response.status,
            body: (await response.json().catch(() => null)) as { id?: string } | null,
          }))
          .catch(() => ({ status: 0, body: null }))
      // Warm the routes up, so the burst below is in flight when the signal comes.
      const first = await deliver()
      assert.equal(first.status, 201, `${JSON.stringify(first.body)}\n${log()}`)
      const burst = Array.from({ length: 40 }, deliver)
      await new Promise((resolve) => setTimeout(resolve, 30))
      server.kill('SIGTERM')

      const answers = await Promise.all(burst)
      const outcome = await exitWithin(started.exited, 20_000)
      assert.equal(outcome, 'exited', log())

      const accepted = answers
        .filter((answer) => answer.status === 201)
        .map((answer) => answer.body!.id!)
      // Without leads in flight at the signal this test would prove nothing.
      assert.isAbove(accepted.length, 0, `no lead of the burst was accepted\n${log()}`)
      const tenancy = await app.container.make(TenancyService)
      const stored = await tenancy.run(publisher, (trx) =>
        trx.from('leads').whereIn('id', accepted).count('* as count')
      )
      assert.equal(Number(stored[0].count), accepted.length)

      // Queued for routing before the server let go of Redis, not left for the sweep to find.
      const queued = await queuedForRouting()
      const unqueued = []
      for (const id of accepted) {
        const routed = await db
          .from('lead_facts')
          .where('lead_id', id)
          .whereNotNull('routed_at')
          .first()
        if (!routed && !queued.has(id)) unqueued.push(id)
      }
      assert.deepEqual(unqueued, [], 'accepted leads without a routing job')
    } finally {
      started.stop()
    }
  }).timeout(120_000)

  test('with two HTTP workers (WEB_CONCURRENCY=2), SIGTERM stops the primary and both workers', async ({
    assert,
  }) => {
    const started = await startAppProcess({ WEB_CONCURRENCY: '2', LOG_LEVEL: 'info' })
    const { server, base } = started
    const workers = childrenOf(server.pid!)
    try {
      assert.lengthOf(workers, 2, started.log)
      // Both workers up, so the signal meets running apps rather than booting ones.
      for (let ready = 0; ready < 2;) {
        ready = (started.log.match(/started HTTP server/g) ?? []).length
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.isTrue((await fetch(`${base}/v1/openapi.json`)).ok)
      server.kill('SIGTERM')
      const outcome = await exitWithin(started.exited, 20_000)
      // Each worker's channel to the primary kept it alive after its app had let go: all three stayed.
      assert.equal(outcome, 'exited', started.log)
      assert.deepEqual(workers.filter(running), [])
    } finally {
      started.stop()
      for (const pid of workers.filter(running)) process.kill(pid, 'SIGKILL')
    }
  }).timeout(120_000)
})
