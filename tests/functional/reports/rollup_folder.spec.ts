import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createPublisher } from '#tests/support/fixtures'
import { foldRollups, startRollupFolder } from '#services/reports/rollup_folder'
import { acceptedFact } from '#tests/functional/reports/reports_support'

/** The publisher's rows still in the rollup log, and its volume in the hour rows. */
async function logAndRollup(publisherId: string) {
  const logged = await db.rawQuery(
    'SELECT count(*)::int AS n FROM report_fact_deltas WHERE publisher_id = ?',
    [publisherId]
  )
  const rolled = await db.rawQuery(
    `SELECT coalesce(sum(volume), 0)::int AS n FROM report_publisher_rollups
      WHERE publisher_id = ? AND grain = 'hour'`,
    [publisherId]
  )
  return { logged: logged.rows[0].n as number, rolled: rolled.rows[0].n as number }
}

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

test.group('Reports / the rollup folder', (group) => {
  // Whatever earlier specs left in the log, folded first so each test sees only its own.
  group.each.setup(() => foldRollups())

  test('writers only log their facts; the worker’s folder moves them into the rollups', async ({
    assert,
    cleanup,
  }) => {
    const publisher = await createPublisher()
    const at = new Date(Date.now() - 60_000)
    // More single-fact statements than the writers used to fold after (256).
    for (let i = 0; i < 300; i++) await db.table('lead_facts').insert(acceptedFact(publisher, at))
    assert.deepEqual(await logAndRollup(publisher.id), { logged: 300, rolled: 0 })

    const stop = startRollupFolder(50)
    cleanup(stop)
    await waitFor(async () => (await logAndRollup(publisher.id)).logged === 0)
    assert.deepEqual(await logAndRollup(publisher.id), { logged: 0, rolled: 300 })

    // A late change (the lead sold) is folded as the old fact out and the new one in.
    await db.rawQuery(
      `UPDATE lead_facts SET status = 'matched', matched_at = ?
        WHERE lead_id = (SELECT lead_id FROM lead_facts WHERE publisher_id = ? LIMIT 1)`,
      [at, publisher.id]
    )
    assert.equal((await logAndRollup(publisher.id)).logged, 2)
    await waitFor(async () => (await logAndRollup(publisher.id)).logged === 0)
    const matched = await db.rawQuery(
      `SELECT sum(volume)::int AS volume, sum(matched)::int AS matched FROM report_publisher_rollups
        WHERE publisher_id = ? AND grain = 'hour'`,
      [publisher.id]
    )
    assert.deepEqual(matched.rows[0], { volume: 300, matched: 1 })
  })

  test('a statement of 1,000 facts or more folds at once, in its own transaction', async ({
    assert,
  }) => {
    const publisher = await createPublisher()
    const at = new Date(Date.now() - 60_000)
    await db
      .table('lead_facts')
      .multiInsert(Array.from({ length: 1000 }, () => acceptedFact(publisher, at)))
    assert.deepEqual(await logAndRollup(publisher.id), { logged: 0, rolled: 1000 })
  })

  test('while one fold runs, another finds its lock taken and leaves the log alone', async ({
    assert,
  }) => {
    const publisher = await createPublisher()
    await db.table('lead_facts').insert(acceptedFact(publisher, new Date(Date.now() - 60_000)))
    const trx = await db.transaction()
    try {
      await trx.rawQuery(`SELECT pg_advisory_xact_lock(hashtext('report_rollups_fold'))`)
      await foldRollups()
      assert.deepEqual(await logAndRollup(publisher.id), { logged: 1, rolled: 0 })
    } finally {
      await trx.rollback()
    }
    await foldRollups()
    assert.deepEqual(await logAndRollup(publisher.id), { logged: 0, rolled: 1 })
  })
})
