import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import locks from '@adonisjs/lock/services/main'
import { runUnderLease } from '#services/platform/leased_lock'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * One process at a time runs a payout run or a clock's turn, on a short lease (Redis): renewed
 * while the work goes on, so a long run keeps it, and lapsing soon after its holder died.
 */
test.group('Leased locks', () => {
  test('a run longer than the lease keeps the lock until it ends, then lets go', async ({
    assert,
  }) => {
    const name = `test:lease:${randomUUID()}`
    let heldMidway: boolean | null = null
    const [ran, value] = await runUnderLease(
      name,
      async () => {
        // Over two leases in: without renewal another process could take it by now. The lease is
        // long enough that the suite's own event-loop stalls (a second on a busy CI machine) do
        // not skip two renewals in a row; a 300 ms lease lapsed there once.
        await sleep(3500)
        heldMidway = !(await locks.createLock(name, 1000).acquireImmediately())
        return 'paid'
      },
      1500
    )
    assert.isTrue(ran)
    assert.equal(value, 'paid')
    assert.isTrue(heldMidway)
    const after = locks.createLock(name, 1000)
    assert.isTrue(await after.acquireImmediately())
    await after.release()
  })

  test('a holder that died blocks others for one lease, not longer', async ({ assert }) => {
    const name = `test:lease:${randomUUID()}`
    // What a killed process leaves: a lease nobody renews or releases.
    assert.isTrue(await locks.createLock(name, 400).acquireImmediately())

    let calls = 0
    const work = async () => ++calls
    assert.deepEqual(await runUnderLease(name, work), [false, null])
    assert.equal(calls, 0)
    await sleep(600)
    assert.deepEqual(await runUnderLease(name, work), [true, 1])
  })

  test('a run that fails still lets go of the lock', async ({ assert }) => {
    const name = `test:lease:${randomUUID()}`
    await assert.rejects(
      () =>
        runUnderLease(name, async () => {
          throw new Error('run failed')
        }),
      'run failed'
    )
    const next = locks.createLock(name, 1000)
    assert.isTrue(await next.acquireImmediately())
    await next.release()
  })
})
