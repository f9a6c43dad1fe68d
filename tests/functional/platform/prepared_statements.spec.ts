import { test } from '@japa/runner'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { prepared, runPrepared } from '#services/sql/prepared'
import { transaction } from '#services/sql/transaction'

test.group('SQL / named prepared statements', () => {
  test('a named statement is parsed once per connection and settles on a generic plan', async ({
    assert,
  }) => {
    await transaction(async (trx) => {
      // One transaction, one connection: what it prepared is in its own pg_prepared_statements.
      const answers = []
      for (let run = 0; run < 8; run++) {
        const result = await prepared(
          trx.rawQuery('SELECT count(*)::int AS n FROM public.publishers WHERE created_at < ?', [
            new Date(),
          ]),
          'spec_publishers_before'
        )
        answers.push(result.rows[0].n)
      }
      assert.lengthOf(new Set(answers), 1)
      const [statement] = (
        await trx.rawQuery(
          `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = ?`,
          ['spec_publishers_before']
        )
      ).rows
      assert.isOk(statement, 'the statement was prepared under its name')
      // Postgres plans the first five runs for their values, then keeps the generic plan.
      assert.equal(statement.custom_plans, 5)
      assert.equal(statement.generic_plans, 3)
    })
  })
})

test.group('SQL / prepared statements per key (runPrepared)', () => {
  const ours = async (trx: TransactionClientContract) =>
    (
      await trx.rawQuery(
        `SELECT name, statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name LIKE 'lg\\_%' ORDER BY prepare_time`
      )
    ).rows as { name: string; statement: string; generic_plans: number; custom_plans: number }[]
  const textOf = (n: number) => `SELECT ?::int + ${n} AS answer`
  // Earlier specs' intake writes may have filled this pooled connection: room for these regardless.
  const roomy = { limit: Number.POSITIVE_INFINITY, idleMs: 0 }

  test('one statement per key and text, settling on a generic plan', async ({ assert }) => {
    await transaction(async (trx) => {
      const before = (await ours(trx)).length
      const answers = []
      for (let run = 0; run < 7; run++) {
        answers.push(
          (await runPrepared(trx, 'spec_tenant_a', textOf(1), [run], roomy)).rows[0].answer
        )
      }
      await runPrepared(trx, 'spec_tenant_b', textOf(1), [0], roomy)
      assert.deepEqual(answers, [1, 2, 3, 4, 5, 6, 7])
      const statements = (await ours(trx)).slice(before)
      // The same text for another key is its own statement: each keeps the search_path it was prepared under.
      assert.lengthOf(statements, 2)
      assert.deepEqual(
        statements.map((statement) => [statement.custom_plans, statement.generic_plans]),
        [
          [5, 2],
          [1, 0],
        ]
      )
    })
  })

  test('a full connection runs a new statement unnamed, or drops one idle long enough', async ({
    assert,
  }) => {
    await transaction(async (trx) => {
      // The limit counts every statement runPrepared left on this connection, whoever ran it.
      const busy = { limit: 2, idleMs: 60_000 }
      const idle = { limit: 2, idleMs: 0 }
      const kept = async () => (await ours(trx)).map((statement) => statement.statement)
      const has = (texts: string[], n: number) => texts.some((text) => text.includes(`+ ${n} AS`))
      await runPrepared(trx, 'spec_limit', textOf(10), [0], idle)
      await runPrepared(trx, 'spec_limit', textOf(20), [0], idle)
      await runPrepared(trx, 'spec_limit', textOf(10), [0], busy) // now the more recent of the two

      // Full, and nothing idle for a minute: the third runs, unprepared, and the two stay.
      assert.equal((await runPrepared(trx, 'spec_limit', textOf(30), [1], busy)).rows[0].answer, 31)
      let texts = await kept()
      assert.lengthOf(texts, 2)
      assert.isTrue(has(texts, 10) && has(texts, 20))

      // Full, and idle ones may go: the least recently run (20) makes room.
      assert.equal((await runPrepared(trx, 'spec_limit', textOf(30), [2], idle)).rows[0].answer, 32)
      texts = await kept()
      assert.lengthOf(texts, 2)
      assert.isTrue(has(texts, 10) && has(texts, 30))
      assert.isFalse(has(texts, 20), 'the least recently run was dropped')

      // The dropped one prepares again under its name without a clash.
      assert.equal((await runPrepared(trx, 'spec_limit', textOf(20), [1], idle)).rows[0].answer, 21)
      texts = await kept()
      assert.isTrue(has(texts, 30) && has(texts, 20))
    })
  })
})
