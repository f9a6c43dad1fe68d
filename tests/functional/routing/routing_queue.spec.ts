import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import routingConfig from '#config/routing'
import {
  closeRoutingQueues,
  enqueueRouting,
  routingQueue,
  startRoutingWorker,
} from '#services/routing/routing_queue'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  eventually,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import { randomUUID } from 'node:crypto'

const prefix = `${routingConfig.prefix}-jobs-spec`

async function waitingJobs() {
  const jobs = await routingQueue(prefix).getJobs(['waiting', 'prioritized', 'delayed'])
  return jobs.map((job) => job.data as { leadIds: string[] })
}

test.group('Routing / jobs carry leads together', (group) => {
  group.each.setup(async () => {
    await disableUnscopedRules()
    await routingQueue(prefix).obliterate({ force: true })
  })
  group.teardown(() => closeRoutingQueues())

  test('leads queued by separate callers within the linger travel in one job', async ({
    assert,
  }) => {
    const [a, b, c, d] = Array.from({ length: 4 }, () => randomUUID())
    const answers = await Promise.all([
      enqueueRouting(a, { prefix }),
      enqueueRouting([b, c], { prefix }),
      enqueueRouting(d, { prefix }),
    ])
    assert.deepEqual(answers, [true, true, true])
    const jobs = await waitingJobs()
    assert.lengthOf(jobs, 1)
    assert.sameMembers(jobs[0].leadIds, [a, b, c, d])
  })

  test('a long list is split into jobs of at most the job size, each lead once', async ({
    assert,
  }) => {
    const size = routingConfig.enqueue.jobSize
    const ids = Array.from({ length: size + 10 }, () => randomUUID())
    assert.isTrue(await enqueueRouting([...ids, ...ids.slice(0, 5)], { prefix }))
    const jobs = await waitingJobs()
    assert.sameMembers(
      jobs.map((job) => job.leadIds.length),
      [size, 10]
    )
    assert.sameMembers(
      jobs.flatMap((job) => job.leadIds),
      ids
    )
  })

  test('a lone lead’s job is named by the lead, so queuing it twice makes one job', async ({
    assert,
  }) => {
    const id = randomUUID()
    await enqueueRouting(id, { prefix })
    await enqueueRouting(id, { prefix })
    assert.lengthOf(await waitingJobs(), 1)
    assert.isOk(await routingQueue(prefix).getJob(id))
  })

  test('the worker routes a job of two publishers’ leads, each once, even when queued twice', async ({
    client,
    assert,
  }) => {
    const first = await routingPublisher()
    const second = await routingPublisher()
    await createRule({ publisherIds: [first.publisher.id, second.publisher.id] })
    const ids = await Promise.all([
      ...Array.from({ length: 3 }, () => acceptedLead(client, first)),
      ...Array.from({ length: 3 }, () => acceptedLead(client, second)),
    ])
    // The same leads in one job and again split across two: routing re-checks each under its lock.
    await enqueueRouting(ids, { prefix })
    await Promise.all([
      enqueueRouting(ids.slice(0, 2), { prefix }),
      enqueueRouting(ids.slice(2), { prefix }),
    ])
    const stop = await startRoutingWorker({ prefix, concurrency: 4, sweep: false })
    try {
      const facts = await eventually(async () => {
        const rows = await db.from('lead_facts').whereIn('lead_id', ids).where('status', 'matched')
        return rows.length === ids.length && rows
      })
      assert.lengthOf(facts, 6)
      await eventually(async () => (await routingQueue(prefix).count()) === 0)
      const events = await db
        .from('outbox_events')
        .whereIn('lead_id', ids)
        .where('type', 'match.found')
        .select('lead_id')
      assert.sameMembers(
        events.map((event) => event.lead_id),
        ids
      )
      const delivered = await db
        .from('audit.entries')
        .whereIn('lead_id', ids)
        .where('event', 'lead.delivered')
      assert.lengthOf(delivered, 6)
    } finally {
      await stop()
    }
  })
})
