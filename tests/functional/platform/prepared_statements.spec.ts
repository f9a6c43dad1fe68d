import { test } from '@japa/runner'
import { prepared } from '#services/sql/prepared'
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
