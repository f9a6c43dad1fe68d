import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { runPrepared } from '#services/sql/prepared'

/** A statement with `?` placeholders: a knex query builder, or `rawPart(...)`. */
export type Part = { toSQL(): { sql: string; bindings: readonly unknown[] } }

export function rawPart(sql: string, bindings: unknown[]): Part {
  return { toSQL: () => ({ sql, bindings }) }
}

/** A column of `rowsOf`: its name and its Postgres type. */
export type Column = readonly [name: string, type: string]

/**
 * Any number of rows as a VALUES list (`v.<name>`), typed column by column,
 * for a statement to join against: the planner knows exactly how many rows
 * it holds (a JSON list it guesses at 100, and may then join it against a
 * scan of a whole table). Cheaper for Postgres than `unnest` over arrays.
 */
export function rowsOf(columns: readonly Column[], rows: Record<string, unknown>[]) {
  const { values, bindings } = valuesOf(columns, rows)
  return {
    from: `(VALUES ${values}) AS v(${columns.map(([name]) => name).join(', ')})`,
    bindings,
  }
}

/** `INSERT INTO table` of any number of rows, as one statement (one VALUES list). */
export function insertRows(
  table: string,
  columns: readonly Column[],
  rows: Record<string, unknown>[],
  suffix = ''
): Part {
  const { values, bindings } = valuesOf(columns, rows)
  const names = columns.map(([name]) => name).join(', ')
  return rawPart(`INSERT INTO ${table} (${names}) VALUES ${values}${suffix}`, bindings)
}

function valuesOf(columns: readonly Column[], rows: Record<string, unknown>[]) {
  const row = `(${columns.map(([, type]) => `?::${type}`).join(', ')})`
  return {
    values: rows.map(() => row).join(', '),
    // Lucid's binding type leaves out null, which binds as SQL NULL.
    bindings: rows.flatMap((values) => columns.map(([name]) => values[name] ?? null)) as any[],
  }
}

/**
 * Several INSERTs as one statement (data-modifying CTEs), so they cost one
 * round trip instead of one each. Foreign keys between them hold: Postgres
 * checks them at the end of the statement. Answers the rows the last part
 * returns. With `preparedKey`, in a transaction and for a statement whose
 * text does not change with the number of rows (`asRecordset` parts), it
 * runs as a named prepared statement of that key (`runPrepared`).
 */
export async function insertTogether(
  client: QueryClientContract,
  inserts: Part[],
  options: { preparedKey?: string } = {}
) {
  const parts = inserts.map((insert) => insert.toSQL())
  const last = parts.pop()!
  const sql = parts.length
    ? `WITH ${parts.map((part, i) => `i${i} AS (${part.sql})`).join(', ')} ${last.sql}`
    : last.sql
  const bindings = [...parts.flatMap((part) => part.bindings), ...last.bindings]
  const { preparedKey } = options
  if (preparedKey !== undefined && !client.isTransaction) {
    throw new Error(
      'A prepared insertTogether runs in a transaction: its connection keeps the statement'
    )
  }
  const result =
    preparedKey === undefined
      ? await client.rawQuery(sql, bindings as any[])
      : await runPrepared(client as TransactionClientContract, preparedKey, sql, bindings)
  return result.rows as Record<string, unknown>[]
}

/**
 * Several SELECTs as one statement (one round trip), each answered as its
 * own list of rows (read back through JSON: numbers, strings, booleans and
 * arrays keep their shape; timestamps come back as text). A part may lock
 * what it reads (`FOR UPDATE`), in its own order.
 */
export async function selectTogether(client: QueryClientContract, selects: Part[]) {
  const parts = selects.map((select) => select.toSQL())
  const result = await client.rawQuery(
    `SELECT ${parts.map((part, i) => `(SELECT coalesce(json_agg(r), '[]') FROM (${part.sql}) r) AS r${i}`).join(', ')}`,
    parts.flatMap((part) => part.bindings) as any[]
  )
  return parts.map((_, i) => result.rows[0][`r${i}`] as Record<string, any>[])
}
