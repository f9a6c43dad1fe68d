import { test } from '@japa/runner'
import fc from 'fast-check'
import { type Segment, segmentsOf } from '#services/reports/report_period'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const at = (iso: string) => new Date(iso).getTime()

/** How many times the segments count the moment `t`: a report must count it once if inside. */
function coverage(segments: Segment[], t: number) {
  return segments
    .filter((s) => s.from.getTime() <= t && t < s.to.getTime())
    .reduce((sum, s) => sum + s.sign, 0)
}

/** Every rollup segment starts and ends where its table's rows do. */
function aligned(s: Segment) {
  const [from, to] = [s.from.getTime(), s.to.getTime()]
  const monthStart = (t: number) => new Date(t).getUTCDate() === 1 && t % DAY === 0
  switch (s.grain) {
    case 'hour':
      return from % HOUR === 0 && to % HOUR === 0
    case 'day':
      return from % DAY === 0 && to % DAY === 0
    case 'week':
      return new Date(from).getUTCDay() === 1 && (to - from) % (7 * DAY) === 0 && from % DAY === 0
    case 'month':
      return monthStart(from) && monthStart(to)
    default:
      return true
  }
}

test.group('Reports / a period as rollup segments', () => {
  test('every moment inside counts once and none outside, whatever the bounds', ({ assert }) => {
    const moment = fc.integer({ min: at('2025-01-01'), max: at('2027-01-01') })
    fc.assert(
      fc.property(moment, moment, fc.boolean(), (a, b, hours) => {
        const [from, to] = [Math.min(a, b), Math.max(a, b)]
        const segments = segmentsOf(new Date(from), new Date(to), 0, { hours, weeks: hours })
        const edges = [from, to, ...segments.flatMap((s) => [s.from.getTime(), s.to.getTime()])]
        for (const t of new Set(edges.flatMap((edge) => [edge - 1, edge]))) {
          assert.equal(
            coverage(segments, t),
            t >= from && t < to ? 1 : 0,
            `at ${new Date(t).toISOString()}`
          )
        }
        assert.isTrue(segments.every(aligned))
        if (!hours) assert.isFalse(segments.some((s) => s.grain === 'hour' || s.grain === 'week'))
      }),
      { numRuns: 2000 }
    )
  })

  test('most of a day is read as the day less the rest of it', ({ assert }) => {
    const segments = segmentsOf(
      new Date('2026-03-02T03:17:00Z'),
      new Date('2026-03-05T20:53:00Z'),
      0
    )
    const read = segments.map((s) => `${s.sign > 0 ? '+' : '-'}${s.grain} ${s.from.toISOString()}`)
    assert.deepEqual(read, [
      '+day 2026-03-02T00:00:00.000Z',
      '-hour 2026-03-02T00:00:00.000Z',
      '-raw 2026-03-02T03:00:00.000Z',
      '+day 2026-03-03T00:00:00.000Z',
      '+day 2026-03-05T00:00:00.000Z',
      '-raw 2026-03-05T20:53:00.000Z',
      '-hour 2026-03-05T21:00:00.000Z',
    ])
  })

  test('a small part of a day is read as its own hours and facts', ({ assert }) => {
    const segments = segmentsOf(
      new Date('2026-03-02T20:30:00Z'),
      new Date('2026-03-04T02:00:00Z'),
      0
    )
    assert.isTrue(segments.every((s) => s.sign === 1))
    assert.deepEqual(
      segments.map((s) => s.grain),
      ['raw', 'hour', 'day', 'hour']
    )
  })
})
