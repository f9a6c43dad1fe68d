import { test } from '@japa/runner'
// @ts-expect-error the load loop is a plain .mjs file the load processes run without type declarations
import { slowestSeconds } from '../../../bench/open_loop.mjs'

test.group('Benchmarks: the slowest seconds of an open-loop run', () => {
  test('tells a stall from queueing: the seconds with the slowest answers, slowest first', ({
    assert,
  }) => {
    const timed = [
      [0, 10],
      [0, 12],
      [1, 180],
      [1, 60],
      [1, 20],
      [2, 55],
      [3, 8],
    ]
    assert.deepEqual(slowestSeconds(timed, 2), [
      { second: 1, answers: 3, max_ms: 180, over_50ms: 2 },
      { second: 2, answers: 1, max_ms: 55, over_50ms: 1 },
    ])
  })
})
