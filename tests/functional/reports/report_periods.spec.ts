import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { createLabel, createPublisher, operatorKey } from '#tests/support/fixtures'

/** A publisher under a fresh label in `zone`, and facts created at the given instants. */
async function labelledFacts(client: any, zone: string, instants: string[]) {
  const key = await operatorKey()
  const label = await createLabel()
  const patched = await client
    .patch(`/v1/labels/${label.id}`)
    .bearerToken(key)
    .json({ time_zone: zone })
  patched.assertStatus(200)
  const publisher = await createPublisher({ label: label.slug })
  await db.table('lead_facts').multiInsert(
    instants.map((at) => ({
      lead_id: randomUUID(),
      publisher_id: publisher.id,
      label_id: label.id,
      channel: 'api',
      environment: 'live',
      status: 'accepted',
      processing_ms: 10,
      created_at: new Date(at),
      updated_at: new Date(at),
    }))
  )
  return { key, label }
}

/**
 * The label's KPIs for [from, to) (local dates), checked to cover exactly `period` and
 * `previous` (four instants: from, to, previous from, previous to) and to count `volumes`.
 */
async function assertPeriods(
  client: any,
  assert: any,
  world: { key: string; label: { slug: string } },
  dates: [string, string],
  instants: [string, string, string, string],
  volumes: [number, number, number]
) {
  const response = await client
    .get('/v1/reports/kpis')
    .qs({ label: world.label.slug, from: dates[0], to: dates[1] })
    .bearerToken(world.key)
  response.assertStatus(200)
  const report = response.body()
  assert.equal(report.time_zone, 'Europe/Berlin')
  assert.deepEqual(report.period, { from: instants[0], to: instants[1] })
  assert.deepEqual(report.previous_period, { from: instants[2], to: instants[3] })
  assert.deepEqual(
    [report.totals.volume, report.totals.previous.volume, report.totals.change.volume],
    volumes
  )
  return report
}

test.group('Reports / periods in the label’s time zone', () => {
  test('a label takes an IANA time zone and refuses anything else', async ({ client, assert }) => {
    const key = await operatorKey()
    const label = await createLabel()
    const bad = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ time_zone: 'Mars/Olympus' })
    bad.assertStatus(422)
    const good = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ time_zone: 'Europe/Berlin' })
    good.assertStatus(200)
    assert.equal(good.body().time_zone, 'Europe/Berlin')
    const stored = await db.from('labels').where('id', label.id).firstOrFail()
    assert.equal(stored.time_zone, 'Europe/Berlin')
  })

  test('the day of the March DST change has 23 hours and is compared with the whole day before', async ({
    client,
    assert,
  }) => {
    const { key, label } = await labelledFacts(client, 'Europe/Berlin', [
      '2026-03-27T22:59:59Z', // Berlin 27th, 23:59: before the previous day
      '2026-03-27T23:00:00Z', // Berlin 28th, 00:00: the previous day's first moment
      '2026-03-28T22:59:00Z', // Berlin 28th, 23:59
      '2026-03-28T23:30:00Z', // Berlin 29th, 00:30
      '2026-03-29T00:59:00Z', // Berlin 29th, 01:59 CET, just before the clocks jump
      '2026-03-29T01:00:00Z', // Berlin 29th, 03:00 CEST
      '2026-03-29T21:59:00Z', // Berlin 29th, 23:59 CEST
      '2026-03-29T22:00:00Z', // Berlin 30th: after the day
    ])
    await assertPeriods(
      client,
      assert,
      { key, label },
      ['2026-03-29', '2026-03-30'],
      [
        '2026-03-28T23:00:00.000Z',
        '2026-03-29T22:00:00.000Z',
        '2026-03-27T23:00:00.000Z',
        '2026-03-28T23:00:00.000Z',
      ],
      [4, 2, 1]
    )

    const series = await client
      .get('/v1/reports/timeseries')
      .qs({
        label: label.slug,
        from: '2026-03-29',
        to: '2026-03-30',
        metric: 'volume',
        interval: 'hour',
      })
      .bearerToken(key)
    series.assertStatus(200)
    // 23 local hours; 02:00 does not exist that night.
    assert.lengthOf(series.body().points, 23)
    assert.equal(
      series.body().points.reduce((sum: number, p: any) => sum + p.value, 0),
      4
    )
  })

  test('the day of the October DST change has 25 hours', async ({ client, assert }) => {
    const { key, label } = await labelledFacts(client, 'Europe/Berlin', [
      '2026-10-24T21:59:00Z', // Berlin 24th, 23:59 CEST: the previous day
      '2026-10-24T22:00:00Z', // Berlin 25th, 00:00 CEST
      '2026-10-25T00:30:00Z', // Berlin 25th, 02:30 CEST
      '2026-10-25T01:30:00Z', // Berlin 25th, 02:30 CET, the same wall clock an hour later
      '2026-10-25T22:59:00Z', // Berlin 25th, 23:59 CET
      '2026-10-25T23:00:00Z', // Berlin 26th
    ])
    await assertPeriods(
      client,
      assert,
      { key, label },
      ['2026-10-25', '2026-10-26'],
      [
        '2026-10-24T22:00:00.000Z',
        '2026-10-25T23:00:00.000Z',
        '2026-10-23T22:00:00.000Z',
        '2026-10-24T22:00:00.000Z',
      ],
      [4, 1, 3]
    )
  })

  test('a month is compared with as many days before it, from local midnight', async ({
    client,
    assert,
  }) => {
    const { key, label } = await labelledFacts(client, 'Europe/Berlin', [
      '2026-01-28T22:59:00Z', // Berlin Jan 28th: outside both
      '2026-01-28T23:00:00Z', // Berlin Jan 29th 00:00: the previous period's first moment
      '2026-02-28T22:59:00Z', // Berlin Feb 28th 23:59: the previous period's last
      '2026-02-28T23:00:00Z', // Berlin Mar 1st 00:00
      '2026-03-31T21:59:00Z', // Berlin Mar 31st 23:59 CEST
      '2026-03-31T22:00:00Z', // Berlin Apr 1st
    ])
    // 31 local days back: January 29th, midnight in Berlin.
    const report = await assertPeriods(
      client,
      assert,
      { key, label },
      ['2026-03-01', '2026-04-01'],
      [
        '2026-02-28T23:00:00.000Z',
        '2026-03-31T22:00:00.000Z',
        '2026-01-28T23:00:00.000Z',
        '2026-02-28T23:00:00.000Z',
      ],
      [2, 2, 0]
    )
    assert.equal(report.totals.acceptance_rate, 1)
    assert.equal(report.totals.change.acceptance_rate, 0)
  })

  test('a zone with a half-hour offset cuts hours, and the edges still count exactly', async ({
    client,
    assert,
  }) => {
    const instants = Array.from({ length: 96 }, (_, i) =>
      new Date(Date.UTC(2026, 5, 9, 12) + i * 17 * 60_000).toISOString()
    )
    const { key, label } = await labelledFacts(client, 'Asia/Kolkata', instants)
    const response = await client
      .get('/v1/reports/kpis')
      .qs({ label: label.slug, from: '2026-06-10', to: '2026-06-11' })
      .bearerToken(key)
    response.assertStatus(200)
    const from = new Date('2026-06-09T18:30:00Z').getTime()
    const to = new Date('2026-06-10T18:30:00Z').getTime()
    const inside = instants.filter(
      (at) => new Date(at).getTime() >= from && new Date(at).getTime() < to
    )
    assert.equal(response.body().period.from, '2026-06-09T18:30:00.000Z')
    assert.equal(response.body().totals.volume, inside.length)
    assert.isAbove(inside.length, 10)
  })
})
