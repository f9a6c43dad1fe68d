import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createPublisher } from '#tests/support/fixtures'
import { markGroupStart, snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

/**
 * The "changes nothing" checks of the API suites stand on these snapshots: they must see a
 * row written in a publisher schema the running group made, and list a schema made anywhere.
 */
test.group('Database snapshots', () => {
  test('see a row added in a publisher schema the group made', async ({ assert, cleanup }) => {
    const publisher = await createPublisher()
    const table = `"${publisher.schemaName}".tenant_migrations`
    cleanup(() => db.rawQuery(`DELETE FROM ${table} WHERE name = 'snapshot-probe'`))

    const before = await snapshotDatabase()
    await db.rawQuery(`INSERT INTO ${table} (name) VALUES ('snapshot-probe')`)
    const difference = snapshotDifference(before, await snapshotDatabase())

    const key = `${publisher.schemaName}.tenant_migrations`
    assert.deepEqual(Object.keys(difference), [key])
    assert.match(difference[key], /^\d+ → \d+$/)
  })

  test('list a schema made since, and leave older publishers uncounted', async ({
    assert,
    cleanup,
  }) => {
    const older = await createPublisher()
    const table = `"${older.schemaName}".tenant_migrations`
    cleanup(() => db.rawQuery(`DELETE FROM ${table} WHERE name = 'snapshot-probe'`))
    // As if a new group began after `older` was made.
    await markGroupStart()

    const before = await snapshotDatabase()
    await db.rawQuery(`INSERT INTO ${table} (name) VALUES ('snapshot-probe')`)
    const newer = await createPublisher()
    const difference = snapshotDifference(before, await snapshotDatabase())

    assert.equal(difference[`schema ${newer.schemaName}`], 'created')
    assert.notProperty(difference, `${older.schemaName}.tenant_migrations`)
    assert.include(before.schemas, older.schemaName)
  })
})
