import pg from 'pg'
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

/** What `insertRows` writes, kept beside its statement for `asRecordset`. */
type RowsInsert = {
  table: string
  columns: readonly Column[]
  rows: Record<string, unknown>[]
  suffix: string
}

/** `INSERT INTO table` of any number of rows, as one statement (one VALUES list). */
export function insertRows(
  table: string,
  columns: readonly Column[],
  rows: Record<string, unknown>[],
  suffix = ''
): Part & { rowsInsert: RowsInsert } {
  const { values, bindings } = valuesOf(columns, rows)
  const names = columns.map(([name]) => name).join(', ')
  return {
    ...rawPart(`INSERT INTO ${table} (${names}) VALUES ${values}${suffix}`, bindings),
    rowsInsert: { table, columns, rows, suffix },
  }
}

/** How the pg driver turns a bound value into the text Postgres reads (dates, arrays, objects). */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils
  .prepareValue

/**
 * An `insertRows` statement rewritten to take its rows as one JSON
 * parameter: a list of rows, each a list of the values as the driver would
 * have bound them (text), cast to the column types in the statement, once.
 * For the hundreds of rows of an upload's batch Postgres then parses and
 * plans one parameter per table instead of one typed expression per value,
 * which measured several times dearer than writing the rows; and the text no
 * longer depends on the number of rows, so the intake write runs as a
 * prepared statement. The rows, their types and what the statement answers
 * are the same; any other part passes unchanged.
 */
export function asRecordset(part: Part): Part {
  if (!('rowsInsert' in part)) return part
  const { table, columns, rows, suffix } = part.rowsInsert as RowsInsert
  const values = rows.map((row) => columns.map(([name]) => asText(row[name])))
  const names = columns.map(([name]) => name).join(', ')
  const casts = columns.map(([, type], index) => `(r.v->>${index})::${type}`).join(', ')
  return rawPart(
    `INSERT INTO ${table} (${names}) SELECT ${casts} FROM jsonb_array_elements(?::jsonb) AS r(v)${suffix}`,
    [JSON.stringify(values)]
  )
}

/**
 * A bound value as the text Postgres reads for it (null stays null), as the
 * driver would send it; a moment as ISO 8601 UTC (the same instant as the
 * driver's local-offset form), bytea in its hex form.
 */
function asText(value: unknown) {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Date) return value.toISOString()
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`
  return prepareValue(value)
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
