import { test } from '@japa/runner'
import { figuresOf } from '#services/reports/kpi_figures'
import { MEASURES, type SumsRow } from '#services/reports/report_figures'

function sums(values: Partial<SumsRow>): SumsRow {
  const zero = Object.fromEntries(MEASURES.map((measure) => [measure, 0]))
  return { bucket: 0, key: null, currency: null, ...zero, ...values } as SumsRow
}

test.group('Reports / figures from sums', () => {
  test('an average on a half rounds up, as Postgres rounds the exact quotient', ({ assert }) => {
    // 1,071,100 ms over 4,000 leads is 267.775 ms: as a float times 100 it falls to 26,777.4999…
    const figures = figuresOf([sums({ processing_ms_sum: 1_071_100, processing_count: 4000 })], {
      reasons: [],
      p90: null,
    })
    assert.equal(figures.avg_processing_ms, 267.78)
  })

  test('rates keep four places, a half rounding up', ({ assert }) => {
    // 57 of 800 is 0.07125: as a float times 10,000 it falls to 712.4999…
    const figures = figuresOf([sums({ volume: 800, accepted: 57 })], { reasons: [], p90: null })
    assert.equal(figures.acceptance_rate, 0.0713)
  })
})
