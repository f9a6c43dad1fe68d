import { test } from '@japa/runner'
import { decide, parseRetryAfter, withJitter } from '#services/webhooks/retry_policy'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const config = {
  retrySchedule: [
    0,
    5000,
    5 * MINUTE,
    30 * MINUTE,
    2 * HOUR,
    5 * HOUR,
    10 * HOUR,
    14 * HOUR,
    20 * HOUR,
    24 * HOUR,
  ],
  jitter: 0.2,
  minDelayAfterThrottleMs: MINUTE,
  retryAfterCapMs: 10 * HOUR,
}
const failed = (overrides = {}) => ({
  ok: false,
  statusCode: 500,
  timedOut: false,
  retryAfterMs: null,
  ...overrides,
})
const middle = () => 0.5

test.group('Webhooks / retry schedule', () => {
  test('follows the Standard Webhooks schedule and is exhausted after the tenth attempt', ({
    assert,
  }) => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) =>
      decide(failed(), attempt, config, middle)
    )
    assert.deepEqual(
      delays,
      config.retrySchedule.slice(1).map((delayMs) => ({ kind: 'retry', delayMs }))
    )
    assert.deepEqual(decide(failed(), 10, config, middle), { kind: 'exhausted' })
    assert.deepEqual(decide({ ...failed(), ok: true, statusCode: 204 }, 3, config), {
      kind: 'succeeded',
    })
  })

  test('spreads each delay by at most ±20%', ({ assert }) => {
    assert.equal(
      withJitter(10_000, 0.2, () => 0),
      8000
    )
    assert.equal(
      withJitter(10_000, 0.2, () => 1),
      12_000
    )
    for (let i = 0; i < 200; i++) {
      const decision = decide(failed(), 3, config)
      assert.equal(decision.kind, 'retry')
      const { delayMs } = decision as { delayMs: number }
      assert.isAtLeast(delayMs, 0.8 * 30 * MINUTE)
      assert.isAtMost(delayMs, 1.2 * 30 * MINUTE)
    }
  })

  test('waits at least a minute after a timeout or a 429', ({ assert }) => {
    assert.deepEqual(decide(failed({ statusCode: null, timedOut: true }), 1, config, middle), {
      kind: 'retry',
      delayMs: MINUTE,
    })
    assert.deepEqual(decide(failed({ statusCode: 429 }), 1, config, middle), {
      kind: 'retry',
      delayMs: MINUTE,
    })
    assert.deepEqual(decide(failed({ statusCode: 429 }), 3, config, middle), {
      kind: 'retry',
      delayMs: 30 * MINUTE,
    })
  })

  test('honours Retry-After, capped at 10 hours; 410 means gone', ({ assert }) => {
    assert.deepEqual(
      decide(failed({ statusCode: 503, retryAfterMs: 2 * HOUR }), 1, config, middle),
      { kind: 'retry', delayMs: 2 * HOUR }
    )
    assert.deepEqual(
      decide(failed({ statusCode: 503, retryAfterMs: 48 * HOUR }), 1, config, middle),
      { kind: 'retry', delayMs: 10 * HOUR }
    )
    assert.deepEqual(decide(failed({ statusCode: 503, retryAfterMs: 1000 }), 4, config, middle), {
      kind: 'retry',
      delayMs: 2 * HOUR,
    })
    assert.deepEqual(decide(failed({ statusCode: 410 }), 1, config, middle), { kind: 'gone' })
  })

  test('reads Retry-After as seconds or as an HTTP date', ({ assert }) => {
    const now = Date.parse('2026-11-22T09:00:00Z')
    assert.equal(parseRetryAfter('120', now), 120_000)
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 09:05:00 GMT', now), 5 * MINUTE)
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 08:00:00 GMT', now), 0)
    assert.isNull(parseRetryAfter('soon', now))
    assert.isNull(parseRetryAfter(undefined, now))
  })
})
