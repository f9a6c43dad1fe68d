import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { Job } from 'bullmq'
import services from '#config/services'
import { DELIVERY_JOB } from '#services/webhooks/delivery_job'
import { unique } from '#tests/support/fixtures'
import { startRuntime } from '#tests/support/webhooks'
import { eventually } from '#tests/functional/routing/routing_support'

test.group('Webhooks / a queue shared with another deployment', () => {
  test('each deployment queues under its own database by default, in one Redis Cluster slot', ({
    assert,
  }) => {
    assert.equal(services.queuePrefix, `{leadgate-${services.databaseName}}`)
  })

  test('a job for a delivery this database does not hold fails loudly and is never completed', async ({
    assert,
  }) => {
    const runtime = await startRuntime({
      prefix: `{${unique('foreign')}}`,
      relay: false,
      sweeper: false,
    })
    try {
      const job = await runtime.queue.add(DELIVERY_JOB, {
        deliveryId: randomUUID(),
        endpointId: randomUUID(),
        attempt: 1,
        rate: 100,
      })
      const failed = await eventually(async () => {
        const state = await Job.fromId(runtime.queue, job.id!)
        return state?.failedReason ? state : null
      })
      assert.match(failed.failedReason, /not in this database/)
      assert.isFalse(await failed.isCompleted())
    } finally {
      await runtime.stop()
    }
  })
})
