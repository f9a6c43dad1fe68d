import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/** A statement with `?` placeholders: a knex query builder, or `rawPart(...)`. */
export type Part = { toSQL(): { sql: string; bindings: readonly unknown[] } }

export function rawPart(sql: string, bindings: unknown[]): Part {
  return { toSQL: () => ({ sql, bindings }) }
}

/**
 * Several INSERTs as one statement (data-modifying CTEs), so they cost one
 * round trip instead of one each. Foreign keys between them hold: Postgres
 * checks them at the end of the statement. Answers the rows the last part
 * returns.
 */
export async function insertTogether(trx: TransactionClientContract, inserts: Part[]) {
  const parts = inserts.map((insert) => insert.toSQL())
  const last = parts.pop()!
  const sql = parts.length
    ? `WITH ${parts.map((part, i) => `i${i} AS (${part.sql})`).join(', ')} ${last.sql}`
    : last.sql
  const bindings = [...parts.flatMap((part) => part.bindings), ...last.bindings]
  const result = await trx.rawQuery(sql, bindings as any[])
  return result.rows as Record<string, unknown>[]
}
