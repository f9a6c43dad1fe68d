import { test } from '@japa/runner'
import { startWorkerClock } from '#services/platform/worker_clock'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test.group('Platform / the worker’s clock', () => {
  test('turns never overlap, even when one lasts longer than the interval', async ({ assert }) => {
    let running = 0
    let most = 0
    let turns = 0
    const stop = startWorkerClock(5, async () => {
      running++
      most = Math.max(most, running)
      await sleep(30)
      running--
      turns++
    })
    // Until three turns have run (however slow the machine), then: never two at once.
    while (turns < 3) await sleep(10)
    await stop()
    assert.equal(most, 1)
    assert.isAtLeast(turns, 3)
  })

  test('stopping waits for the turn in progress and starts no other', async ({ assert }) => {
    const events: string[] = []
    const stop = startWorkerClock(5, async () => {
      events.push('start')
      await sleep(50)
      events.push('end')
    })
    await sleep(20)
    await stop()
    assert.deepEqual(events, ['start', 'end'])
    await sleep(40)
    assert.deepEqual(events, ['start', 'end'])
  })
})
