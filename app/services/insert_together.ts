import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

type Insert = { toSQL(): { sql: string; bindings: readonly unknown[] } }

/**
 * Several INSERTs as one statement (data-modifying CTEs), so they cost one
 * round trip instead of one each. Foreign keys between them hold: Postgres
 * checks them at the end of the statement.
 */
export async function insertTogether(trx: TransactionClientContract, inserts: Insert[]) {
  const parts = inserts.map((insert) => insert.toSQL())
  const last = parts.pop()!
  const sql = parts.length
    ? `WITH ${parts.map((part, i) => `i${i} AS (${part.sql})`).join(', ')} ${last.sql}`
    : last.sql
  const bindings = [...parts.flatMap((part) => part.bindings), ...last.bindings]
  await trx.rawQuery(sql, bindings as any[])
}
