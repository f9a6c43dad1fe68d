import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createBuyer, createLabel, createPublisher, operatorKey } from '#tests/support/fixtures'
import {
  type World,
  assertFigures,
  expectedFigures,
  insertFacts,
  lateChanges,
  randomFrom,
  reportedFigures,
} from '#tests/functional/reports/reports_support'

const HOUR = 3_600_000

async function world(): Promise<World> {
  const label = await createLabel()
  await db.from('labels').where('id', label.id).update({ time_zone: 'Asia/Kolkata' })
  const publishers = [
    await createPublisher({ label: label.slug }),
    await createPublisher({ label: label.slug }),
    await createPublisher(),
  ]
  return {
    publishers: publishers.map((p) => ({ id: p.id, label_id: p.labelId })),
    buyers: [(await createBuyer()).id, (await createBuyer()).id],
  }
}

test.group('Reports / exact figures', () => {
  test('every figure equals a direct query over lead_facts after random activity', async ({
    client,
    assert,
  }) => {
    const seed = Date.now() % 1_000_000
    const random = randomFrom(seed)
    const w = await world()
    const now = Date.now()
    const ids = await insertFacts(w, random, 1500, new Date(now - 12 * 24 * HOUR), new Date(now))
    ids.push(
      ...(await insertFacts(w, random, 1500, new Date(now - 160 * 24 * HOUR), new Date(now)))
    )
    await lateChanges(w, random, ids)
    await db.rawQuery('SELECT report_rollups_fold()')
    // The last changes stay in the log (writers never fold statements under 1,000 facts; the
    // worker's folder does, and none runs here): the reports must add them to the rollups,
    // then equal the same figures once they are folded.
    const more = await insertFacts(w, random, 200, new Date(now - 3 * 24 * HOUR), new Date(now))
    await lateChanges(w, random, more)
    const pending = await db.rawQuery('SELECT count(*)::int AS n FROM report_fact_deltas')
    assert.isAbove(pending.rows[0].n, 0)
    const key = await operatorKey()
    const publisherIds = w.publishers.map((p) => p.id)

    // Bounds inside hours and days, so whole months, days, hours and raw edges all count; and
    // bounds at 03:17 and 20:53 UTC, whose partial days are read as whole days less the rest.
    const today = Math.floor(now / (24 * HOUR)) * 24 * HOUR
    const cases = [
      ...[4, 75].flatMap((days) =>
        ['none', 'publisher', 'label', 'buyer', 'channel'].map((groupBy) => ({
          groupBy,
          from: new Date(now - days * 24 * HOUR - 17 * 60_000 - 13_000),
          to: new Date(now - HOUR - 7 * 60_000),
        }))
      ),
      ...[5, 80].flatMap((days) =>
        ['none', 'publisher', 'buyer'].map((groupBy) => ({
          groupBy,
          from: new Date(today - days * 24 * HOUR + 3 * HOUR + 17 * 60_000),
          to: new Date(today - 3 * HOUR - 7 * 60_000),
        }))
      ),
    ]
    // How many p90s fell above the exact range: both kinds must have been compared.
    const compared = { exact: 0, approximate: 0 }
    const check = (reported: Record<string, any>, direct: any, message: string) =>
      assertFigures(assert, reported, direct, message) ? compared.approximate++ : compared.exact++
    for (const fold of [false, true]) {
      if (fold) await db.rawQuery('SELECT report_rollups_fold()')
      for (const { groupBy, from, to } of cases) {
        const response = await client
          .get('/v1/reports/kpis')
          .qs({
            from: from.toISOString(),
            to: to.toISOString(),
            publisher: publisherIds.join(','),
            ...(groupBy === 'none' ? {} : { group_by: groupBy }),
          })
          .bearerToken(key)
        response.assertStatus(200)
        const report = response.body()
        const previous = {
          from: new Date(report.previous_period.from),
          to: new Date(report.previous_period.to),
        }
        assert.equal(previous.to.getTime(), from.getTime(), `seed ${seed}`)
        assert.equal(previous.from.getTime(), from.getTime() - (to.getTime() - from.getTime()))
        const expected = await expectedFigures(groupBy, publisherIds, from, to)
        const expectedBefore = await expectedFigures(
          groupBy,
          publisherIds,
          previous.from,
          previous.to
        )
        const totals = await expectedFigures('none', publisherIds, from, to)
        check(reportedFigures(report.totals), totals.get(null), `${groupBy} totals, seed ${seed}`)
        const rows = groupBy === 'none' ? [report.totals] : report.rows
        assert.isAbove(expected.size, 0)
        assert.lengthOf(rows, expected.size, `${groupBy}, seed ${seed}`)
        for (const row of rows) {
          check(reportedFigures(row), expected.get(row.key), `${groupBy} ${row.key}, seed ${seed}`)
          const before = expectedBefore.get(row.key)
          if (before) {
            check(
              reportedFigures({ ...row.previous, key: row.key }),
              before,
              `${groupBy} ${row.key} previous, seed ${seed}`
            )
          }
        }
      }
    }
    assert.isAbove(compared.exact, 0, `seed ${seed}`)
    assert.isAbove(compared.approximate, 0, `seed ${seed}`)
  }).timeout(120_000)

  test('the stored rollups equal the facts, hour by hour, day by day and month by month', async ({
    assert,
  }) => {
    const random = randomFrom(42)
    const w = await world()
    const now = Date.now()
    const ids = await insertFacts(w, random, 600, new Date(now - 5 * 24 * HOUR), new Date(now))
    // Folded twice: the late changes merge into rows already stored.
    await db.rawQuery('SELECT report_rollups_fold()')
    await lateChanges(w, random, ids)
    const publisherIds = w.publishers.map((p) => p.id)
    const wide = 'publisher_id, buyer_id, channel, environment, currency'
    const narrow = 'publisher_id, label_id, environment, currency'
    const cubes = [
      { table: 'report_rollups', key: wide, grains: ['day', 'month'] },
      { table: 'report_publisher_rollups', key: narrow, grains: ['hour', 'day', 'week', 'month'] },
    ]
    const stored = async () => {
      const rows: unknown[] = []
      for (const { table, key, grains } of cubes) {
        for (const grain of grains) {
          const result = await db.rawQuery(
            `SELECT ? AS grain, at, ${key},
                    volume::int, accepted::int, flagged::int, rejected::int, matched::int, kept::int,
                    returns::int, revenue_cents::int, payout_cents::int, processing_count::int,
                    processing_ms_sum::int
               FROM ${table} WHERE publisher_id = ANY(?::uuid[]) AND grain = ? AND volume <> 0
              ORDER BY 2, 3, 4, 5, 6, 7`,
            [grain, publisherIds, grain]
          )
          const direct = await db.rawQuery(
            `SELECT ? AS grain, date_trunc(?, created_at, 'UTC') AS at, ${key},
                    count(*)::int AS volume,
                    count(*) FILTER (WHERE status NOT IN ('flagged', 'rejected'))::int AS accepted,
                    count(*) FILTER (WHERE status = 'flagged')::int AS flagged,
                    count(*) FILTER (WHERE status = 'rejected')::int AS rejected,
                    count(matched_at)::int AS matched,
                    count(matched_at) FILTER (WHERE settlement IS DISTINCT FROM 'returned')::int AS kept,
                    count(*) FILTER (WHERE settlement = 'returned')::int AS returns,
                    coalesce(sum(price_cents) FILTER (WHERE matched_at IS NOT NULL AND settlement IS DISTINCT FROM 'returned'), 0)::int AS revenue_cents,
                    coalesce(sum(payout_cents) FILTER (WHERE matched_at IS NOT NULL AND settlement IS DISTINCT FROM 'returned'), 0)::int AS payout_cents,
                    count(processing_ms)::int AS processing_count,
                    coalesce(sum(processing_ms), 0)::int AS processing_ms_sum
               FROM lead_facts WHERE publisher_id = ANY(?::uuid[])
              GROUP BY 2, ${key} ORDER BY 2, 3, 4, 5, 6, 7`,
            [grain, grain, publisherIds]
          )
          assert.isAbove(direct.rows.length, 10)
          assert.deepEqual(result.rows, direct.rows, `${table} ${grain}`)
          rows.push(...result.rows)
        }
      }
      // The packed counts: per period, publisher and bucket (or reason code), the count of the
      // facts in it, summed over the rows' arrays.
      const packed = [
        ['report_rollup_latency', 'day'],
        ['report_rollup_latency', 'month'],
        ['report_rollup_reasons', 'day'],
        ['report_rollup_reasons', 'month'],
        ...['hour', 'day', 'week', 'month'].flatMap((grain) => [
          ['report_publisher_rollup_latency', grain],
          ['report_publisher_rollup_reasons', grain],
        ]),
      ]
      for (const [table, grain] of packed) {
        const latency = table.endsWith('_latency')
        const counted = await db.rawQuery(
          `SELECT at, publisher_id, u.k, sum(u.n)::int AS count
             FROM ${table}, unnest(${latency ? 'buckets_ms' : 'codes'}, counts) AS u(k, n)
            WHERE grain = ? AND publisher_id = ANY(?::uuid[]) GROUP BY 1, 2, 3
           HAVING sum(u.n) <> 0 ORDER BY 1, 2, 3`,
          [grain, publisherIds]
        )
        const direct = await db.rawQuery(
          latency
            ? `SELECT date_trunc(?, created_at, 'UTC') AS at, publisher_id,
                      report_latency_bucket(processing_ms) AS k, count(*)::int AS count
                 FROM lead_facts WHERE publisher_id = ANY(?::uuid[]) AND processing_ms IS NOT NULL
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
            : `SELECT date_trunc(?, created_at, 'UTC') AS at, publisher_id, code AS k,
                      count(*)::int AS count
                 FROM lead_facts, unnest(reason_codes) code
                WHERE publisher_id = ANY(?::uuid[]) AND status IN ('flagged', 'rejected')
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
          [grain, publisherIds]
        )
        assert.isAbove(direct.rows.length, 0)
        assert.deepEqual(counted.rows, direct.rows, `${table} ${grain}`)
        rows.push(...counted.rows)
      }
      return rows
    }
    await db.rawQuery('SELECT report_rollups_fold()')
    const left = await db.rawQuery('SELECT count(*)::int AS n FROM report_fact_deltas')
    assert.equal(left.rows[0].n, 0)
    const maintained = await stored()
    // The set-based rebuild (a bulk load, the benchmark's --reuse) answers the same rows.
    await db.rawQuery('SELECT report_rollups_rebuild()')
    assert.deepEqual(await stored(), maintained)
  }).timeout(60_000)
})
