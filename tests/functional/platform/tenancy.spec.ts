import { test } from '@japa/runner'
import { uuidv7 } from 'uuidv7'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import TenancyService from '#services/platform/tenancy_service'
import { createPublisher } from '#tests/support/fixtures'

const lead = (publisherId: string) => ({
  id: uuidv7(),
  publisher_id: publisherId,
  environment: 'live',
  channel: 'api',
  status: 'received',
  contact: JSON.stringify({ name: 'A' }),
  provenance: JSON.stringify({}),
  consent: JSON.stringify({}),
  quality_check: JSON.stringify({}),
  created_at: new Date(),
  updated_at: new Date(),
})

test.group('Tenancy', () => {
  test('creating a publisher provisions its schema with the tenant tables', async ({ assert }) => {
    const publisher = await createPublisher()
    assert.equal(publisher.schemaName, `pub_${publisher.id.replaceAll('-', '')}`)
    const tables = await db
      .from('information_schema.tables')
      .where('table_schema', publisher.schemaName)
      .select('table_name')
    assert.includeMembers(
      tables.map((row) => row.table_name),
      ['leads', 'tenant_migrations']
    )
  })

  test('publisher-bound work reads and writes only its own schema, even when a query forgets a filter', async ({
    assert,
  }) => {
    const tenancy = await app.container.make(TenancyService)
    const [a, b] = [await createPublisher(), await createPublisher()]
    await tenancy.run(a, (trx) => trx.table('leads').insert(lead(a.id)))
    await tenancy.run(b, (trx) => trx.table('leads').insert([lead(b.id), lead(b.id)]))

    const seenByA = await tenancy.run(a, (trx) => trx.from('leads').select('publisher_id'))
    assert.deepEqual(
      seenByA.map((row) => row.publisher_id),
      [a.id]
    )
    const seenByB = await tenancy.run(b, (trx) => trx.from('leads').select('publisher_id'))
    assert.lengthOf(seenByB, 2)
    assert.isTrue(seenByB.every((row) => row.publisher_id === b.id))

    // Without a tenant transaction there is no `leads` table at all.
    await assert.rejects(() => db.from('leads').select('*'), /relation "leads" does not exist/)
  })

  test('a connection returned to the pool carries no tenant search_path', async ({ assert }) => {
    const tenancy = await app.container.make(TenancyService)
    const publishers = [await createPublisher(), await createPublisher()]
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        tenancy.run(publishers[i % 2], (trx) => trx.from('leads').count('* as n'))
      )
    )

    const paths = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (trx) => (await trx.rawQuery('SHOW search_path')).rows[0].search_path)
      )
    )
    assert.isTrue(
      paths.every((path) => !path.includes('pub_')),
      `leaked: ${paths.join(' | ')}`
    )
  })

  test('intake enters the schema with its first statement; the path dies with the transaction', async ({
    assert,
  }) => {
    const tenancy = await app.container.make(TenancyService)
    const [a, b] = [await createPublisher(), await createPublisher()]
    await tenancy.run(a, (trx) => trx.table('leads').insert(lead(a.id)))
    const screen = (trx: any, schemaName: string) =>
      trx.rawQuery(
        'SELECT key FROM intake_enter_and_screen(?, ?::text[], ?::text[], ?::text[], ?, ?) AS key',
        [schemaName, [], [], [], 'live', new Date(0)]
      )

    const seenByA = await tenancy.runEntered(a, screen, (trx) =>
      trx.from('leads').select('publisher_id')
    )
    assert.deepEqual(
      seenByA.map((row: any) => row.publisher_id),
      [a.id]
    )
    const seenByB = await tenancy.runEntered(b, screen, (trx) =>
      trx.from('leads').select('publisher_id')
    )
    assert.lengthOf(seenByB, 0)

    const path = await db.transaction(
      async (trx) => (await trx.rawQuery('SHOW search_path')).rows[0].search_path
    )
    assert.notInclude(path, 'pub_')
    await assert.rejects(
      () => tenancy.runEntered({ schemaName: 'pub_x; DROP TABLE leads' }, screen, async () => null),
      /unsafe schema name/
    )
  })

  test('a failed unit of work rolls back inside the tenant and leaves the pool clean', async ({
    assert,
  }) => {
    const tenancy = await app.container.make(TenancyService)
    const publisher = await createPublisher()
    await assert.rejects(() =>
      tenancy.run(publisher, async (trx) => {
        await trx.table('leads').insert(lead(publisher.id))
        throw new Error('boom')
      })
    )
    const count = await tenancy.run(publisher, (trx) => trx.from('leads').count('* as n'))
    assert.equal(Number(count[0].n), 0)
  })

  test('tenant:migrate is idempotent and safe to run concurrently', async ({ assert }) => {
    const tenancy = await app.container.make(TenancyService)
    const publisher = await createPublisher()
    const results = await Promise.all([
      tenancy.migrate(publisher),
      tenancy.migrate(publisher),
      tenancy.migrate(publisher),
    ])
    assert.deepEqual(results, [[], [], []])

    const fresh = { schemaName: `pub_${uuidv7().replaceAll('-', '')}` }
    await db.rawQuery(`CREATE SCHEMA ${fresh.schemaName}`)
    const concurrent = await Promise.all([tenancy.migrate(fresh), tenancy.migrate(fresh)])
    assert.equal(concurrent.flat().filter((name) => name.startsWith('0001')).length, 1)
    const applied = await db.from(`${fresh.schemaName}.tenant_migrations`).select('name')
    assert.equal(applied.filter((row) => row.name.startsWith('0001')).length, 1)
    await db.rawQuery(`DROP SCHEMA ${fresh.schemaName} CASCADE`)
  })
})
