import { test } from '@japa/runner'
import pg from 'pg'
import db from '@adonisjs/lucid/services/db'
import services from '#config/services'
import { problemFor } from '#exceptions/problem_mapping'
import { transaction } from '#services/sql/transaction'
import { asAdmin } from '#tests/support/admin_db'
import { unique } from '#tests/support/fixtures'

/** Ends a backend from outside, as a failover or an operator would, and waits until it is gone. */
async function terminate(pid: number) {
  await asAdmin(async (admin) => {
    await admin.query('SELECT pg_terminate_backend($1)', [pid])
    for (let tries = 0; tries < 100; tries++) {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])
      if (rowCount === 0) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })
}

test.group('Transactions / a commit is confirmed or it failed', () => {
  test('when the connection dies before COMMIT, the write fails and nothing is stored', async ({
    assert,
  }) => {
    const slug = unique('lost')
    const attempt = transaction(async (trx) => {
      await trx.table('labels').insert({
        id: crypto.randomUUID(),
        slug,
        name: 'Never committed',
        created_at: new Date(),
        updated_at: new Date(),
      })
      const { rows } = await trx.rawQuery('SELECT pg_backend_pid() AS pid')
      await terminate(rows[0].pid)
      return 'answered'
    })
    await assert.rejects(() => attempt)
    assert.isNull(await db.from('labels').where('slug', slug).first())
  })

  test('a committed transaction resolves to what its work returned', async ({ assert }) => {
    const slug = unique('kept')
    const result = await transaction(async (trx) => {
      await trx.table('labels').insert({
        id: crypto.randomUUID(),
        slug,
        name: 'Committed',
        created_at: new Date(),
        updated_at: new Date(),
      })
      return slug
    })
    assert.equal(result, slug)
    assert.exists(await db.from('labels').where('slug', slug).first())
  })

  test('a lost database connection is answered 503 with Retry-After, not 500', async ({
    assert,
  }) => {
    const client = new pg.Client({ connectionString: services.databaseUrl.href })
    client.on('error', () => {})
    await client.connect()
    const { rows } = await client.query('SELECT pg_backend_pid() AS pid')
    await terminate(rows[0].pid)
    const lost = await client.query('SELECT 1').then(
      () => null,
      (error: unknown) => error
    )
    await client.end().catch(() => {})
    assert.instanceOf(lost, Error)

    const problem = problemFor(lost, { request: { url: () => '/v1/leads' } } as any)
    assert.equal(problem?.status, 503)
    assert.equal(problem?.code, 'database_unavailable')
    assert.equal(problem?.retryAfter, 5)
  })
})
