import { test } from '@japa/runner'
import pg from 'pg'
import services from '#config/services'
import { BinaryTuples } from '#services/audit/pg_binary_copy'

async function withClient<T>(work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: services.databaseUrl.href })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

test.group('Binary COPY read whole', () => {
  test('rows of every size across many socket reads come back whole, in order, NULLs included', async ({
    assert,
  }) => {
    await withClient(async (client) => {
      // Rows of 0 to 999 bytes, so message headers and rows fall across socket reads everywhere.
      const rows = await BinaryTuples.read(
        client,
        `SELECT i::bigint, CASE WHEN i % 7 = 0 THEN NULL ELSE repeat('x', i % 1000) END
         FROM generate_series(1, 60000) AS g(i)`,
        2,
        Buffer.alloc(10)
      )
      let count = 0
      while (rows.next()) {
        count++
        assert.equal(rows.int8(0), count)
        const text = rows.text(1)
        if (text !== (count % 7 === 0 ? null : 'x'.repeat(count % 1000))) {
          assert.fail(`row ${count} came back as ${text?.length} bytes`)
        }
      }
      assert.equal(count, 60000)
      assert.isAbove(rows.storage.length, 10, 'the storage given grew to hold them')
    })
  })

  test('an error is the query’s, and the connection goes on serving queries', async ({
    assert,
  }) => {
    await withClient(async (client) => {
      await assert.rejects(
        () => BinaryTuples.read(client, 'SELECT 1 / (3 - i) FROM generate_series(1, 5) AS g(i)', 1),
        /division by zero/
      )
      await assert.rejects(
        () => BinaryTuples.read(client, 'SELECT nothing_here', 1),
        /nothing_here/
      )
      const { rows } = await client.query('SELECT 42 AS answer')
      assert.equal(rows[0].answer, 42)
      const after = await BinaryTuples.read(client, 'SELECT 7::bigint', 1)
      assert.isTrue(after.next())
      assert.equal(after.int8(0), 7)
    })
  })
})
