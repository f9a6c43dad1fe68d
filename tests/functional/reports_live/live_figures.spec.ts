import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Principal from '#auth/principal'
import Publisher from '#models/publisher'
import LiveFiguresService from '#services/reports/live_figures'
import ReportService from '#services/reports/report_service'
import SettlementService from '#services/money/settlement_service'
import { namedPeriod } from '#services/reports/report_period'
import { createLabel, createPublisher } from '#tests/support/fixtures'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { soldLead } from '#tests/support/money'
import { insertFacts, lateChanges, randomFrom } from '#tests/functional/reports/reports_support'

const DAY = 86_400_000

/** A portal user of the publisher, as the page's controller gets it. */
const userOf = (publisherId: string) =>
  new Principal('publisher', new Set(['read', 'submit']), 'live', 'publisher:test', publisherId)

/**
 * Four publishers with random activity over the last three days (two in a label at +05:30,
 * one in UTC, reasons, slow and unknown processing times, sandbox leads, late changes) and a
 * fifth without a single lead.
 */
async function world() {
  const label = await createLabel()
  await db.from('labels').where('id', label.id).update({ time_zone: 'Asia/Kolkata' })
  const publishers = [
    await createPublisher({ label: label.slug }),
    await createPublisher({ label: label.slug }),
    await createPublisher(),
    await createPublisher(),
  ]
  const quiet = await createPublisher()
  const seed = Date.now() % 1_000_000
  const random = randomFrom(seed)
  const facts = {
    publishers: publishers.map((p) => ({ id: p.id, label_id: p.labelId })),
    buyers: [],
  }
  const now = Date.now()
  const ids = await insertFacts(facts, random, 600, new Date(now - 3 * DAY), new Date(now))
  await lateChanges(facts, random, ids)
  const all = await Publisher.query()
    .whereIn(
      'id',
      [...publishers, quiet].map((p) => p.id)
    )
    .preload('label')
  return { all, quiet, seed }
}

test.group('Reports / a live dashboard’s figures, read for many publishers at once', () => {
  test('the grouped reading gives each publisher exactly the report it reads alone', async ({
    assert,
  }) => {
    const { all, quiet, seed } = await world()
    const reports = await app.container.make(ReportService)
    const zones = Map.groupBy(all, (publisher) => publisher.label?.timeZone ?? 'UTC')
    assert.equal(zones.size, 2)
    for (const [timeZone, group] of zones) {
      const today = namedPeriod('today', timeZone)
      const grouped = await reports.ownKpisOf(
        group.map((publisher) => publisher.id),
        { ...today, timeZone, environment: 'live' }
      )
      for (const publisher of group) {
        if (publisher.id === quiet.id) {
          assert.isFalse(grouped.has(publisher.id))
          continue
        }
        const alone = await reports.kpis(userOf(publisher.id), {
          ...today,
          timeZone,
          filters: { environment: 'live' },
        })
        assert.deepEqual(grouped.get(publisher.id), alone, `seed ${seed}, ${timeZone}`)
        assert.notProperty(alone.totals, 'revenue_cents')
      }
    }
  })

  test('the grouped trends give each publisher exactly the series it reads alone', async ({
    assert,
  }) => {
    const { all, seed } = await world()
    const reports = await app.container.make(ReportService)
    const zones = Map.groupBy(all, (publisher) => publisher.label?.timeZone ?? 'UTC')
    for (const [timeZone, group] of zones) {
      const today = namedPeriod('today', timeZone)
      for (const query of [
        { metric: 'volume' as const, interval: 'hour' as const, ...today },
        {
          metric: 'accepted' as const,
          interval: 'day' as const,
          ...namedPeriod('last_7_days', timeZone),
        },
        { metric: 'payout_cents' as const, interval: 'hour' as const, ...today },
      ]) {
        const grouped = await reports.ownTimeseriesOf(
          group.map((publisher) => publisher.id),
          { ...query, timeZone, environment: 'live' }
        )
        assert.equal(grouped.size, group.length)
        for (const publisher of group) {
          const alone = await reports.timeseries(userOf(publisher.id), {
            ...query,
            timeZone,
            filters: { environment: 'live' },
          })
          const label = `seed ${seed}, ${timeZone}, ${query.metric} by ${query.interval}`
          assert.deepEqual(grouped.get(publisher.id), alone, label)
        }
      }
      // What a publisher is never shown is never read for it.
      await assert.rejects(() =>
        reports.ownTimeseriesOf([group[0].id], {
          metric: 'revenue_cents',
          interval: 'hour',
          ...today,
          timeZone,
          environment: 'live',
        })
      )
    }
  })

  test('the grouped settlements give each publisher exactly the settlement it reads alone', async ({
    assert,
    client,
  }) => {
    await disableUnscopedRules()
    const label = await createLabel()
    const sold = [
      await soldLead(client, { payoutCents: 3000 }),
      await soldLead(client, { payoutCents: 1200, label }),
    ]
    const quiet = await createPublisher({ label: label.slug })
    const publishers = await Publisher.query().whereIn('id', [
      ...sold.map((sale) => sale.publisher.id),
      quiet.id,
    ])
    const settlements = await app.container.make(SettlementService)
    const grouped = await settlements.settlementsOf(publishers)
    assert.equal(grouped.size, publishers.length)
    for (const publisher of publishers) {
      assert.deepEqual(grouped.get(publisher.id), await settlements.settlementOf(publisher))
    }
    assert.deepInclude(grouped.get(sold[0].publisher.id), {
      pending_cents: 3000,
      accepted_leads: 1,
    })
    assert.deepInclude(grouped.get(sold[1].publisher.id), {
      pending_cents: 1200,
      accepted_leads: 1,
    })
    assert.deepInclude(grouped.get(quiet.id), { pending_cents: 0, accepted_leads: 0 })
  })

  test('the live feed’s figures of every publisher equal what its page renders', async ({
    assert,
  }) => {
    const { all, seed } = await world()
    const live = await app.container.make(LiveFiguresService)
    const pushed = await live.figuresOfPublishers(all.map((publisher) => publisher.id))
    assert.equal(pushed.size, all.length)
    for (const publisher of all) {
      const rendered = await live.figuresOf(userOf(publisher.id), publisher)
      assert.deepEqual(pushed.get(publisher.id), rendered, `seed ${seed}`)
    }
    const everything = JSON.stringify([...pushed.values()])
    for (const hidden of ['revenue_cents', 'margin_cents']) assert.notInclude(everything, hidden)
  })
})
