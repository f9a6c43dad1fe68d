import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** A statement with `?` placeholders: a knex query builder, or `rawPart(...)`. */
export type Part = { toSQL(): { sql: string; bindings: readonly unknown[] } }

export function rawPart(sql: string, bindings: unknown[]): Part {
  return { toSQL: () => ({ sql, bindings }) }
}

/** A column of `rowsPart`: its name, its Postgres type, and how to read it when not as is. */
export type Column = readonly [name: string, type: string, select?: string]

/**
 * Any number of rows as `unnest` over one array per column (`v.<name>`):
 * a few bindings instead of one per value, and the planner knows how many
 * rows it holds (a JSON list it guesses at 100, and may then join by
 * scanning a whole table). Array values go in as JSON (`jsonb`), with a
 * `select` that unpacks them.
 */
export function rowsOf(columns: readonly Column[], rows: Record<string, unknown>[]) {
  const names = columns.map(([name]) => name)
  return {
    from: `unnest(${columns.map(([, type]) => `?::${type}[]`).join(', ')}) AS v(${names.join(', ')})`,
    select: columns.map(([name, , select]) => select ?? `v.${name}`).join(', '),
    // Lucid's binding type leaves out null, which pg sends as SQL NULL inside an array too.
    bindings: columns.map(([name]) => rows.map((row) => row[name] ?? null)) as any[],
  }
}

/** `INSERT INTO table` of any number of rows, in one text per table (see `rowsOf`). */
export function insertRows(
  table: string,
  columns: readonly Column[],
  rows: Record<string, unknown>[],
  suffix = ''
): Part {
  const { from, select, bindings } = rowsOf(columns, rows)
  const names = columns.map(([name]) => name).join(', ')
  return rawPart(`INSERT INTO ${table} (${names}) SELECT ${select} FROM ${from}${suffix}`, bindings)
}

/**
 * Several INSERTs as one statement (data-modifying CTEs), so they cost one
 * round trip instead of one each. Foreign keys between them hold: Postgres
 * checks them at the end of the statement. Answers the rows the last part
 * returns.
 */
export async function insertTogether(client: QueryClientContract, inserts: Part[]) {
  const parts = inserts.map((insert) => insert.toSQL())
  const last = parts.pop()!
  const sql = parts.length
    ? `WITH ${parts.map((part, i) => `i${i} AS (${part.sql})`).join(', ')} ${last.sql}`
    : last.sql
  const bindings = [...parts.flatMap((part) => part.bindings), ...last.bindings]
  const result = await client.rawQuery(sql, bindings as any[])
  return result.rows as Record<string, unknown>[]
}
