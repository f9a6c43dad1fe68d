import db from '@adonisjs/lucid/services/db'

export type DatabaseSnapshot = { schemas: string[]; counts: Record<string, number> }

const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema']

/**
 * The whole database at a glance: every schema, and the row count of every
 * table in every schema (public, audit and each publisher's). A refused
 * request must leave this exactly as it was. One query for all counts, so a
 * sweep can take a snapshot around every single request.
 */
export async function snapshotDatabase(): Promise<DatabaseSnapshot> {
  const schemas = (
    await rows<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname NOT IN (${SYSTEM_SCHEMAS.map(() => '?').join(', ')})
         AND nspname NOT LIKE 'pg\\_%' ORDER BY nspname`,
      SYSTEM_SCHEMAS
    )
  ).map((row) => row.nspname)

  const tables = await rows<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema = ANY(?) ORDER BY 1, 2`,
    [schemas]
  )
  if (tables.length === 0) return { schemas, counts: {} }

  const counts = await rows<{ name: string; total: number }>(
    tables
      .map(({ table_schema: schema, table_name: table }) => {
        const name = `${schema}.${table}`.replaceAll("'", "''")
        return `SELECT '${name}' AS name, count(*)::int AS total FROM ${quote(schema)}.${quote(table)}`
      })
      .join(' UNION ALL ')
  )
  return { schemas, counts: Object.fromEntries(counts.map((row) => [row.name, row.total])) }
}

async function rows<Row>(sql: string, bindings: unknown[] = []): Promise<Row[]> {
  const result = await db.rawQuery(sql, bindings as any[])
  return result.rows
}

/** What differs between two snapshots, e.g. `{ "public.labels": "3 → 4" }`; empty when nothing changed. */
export function snapshotDifference(before: DatabaseSnapshot, after: DatabaseSnapshot) {
  const difference: Record<string, string> = {}
  for (const schema of new Set([...before.schemas, ...after.schemas])) {
    const was = before.schemas.includes(schema)
    if (was !== after.schemas.includes(schema))
      difference[`schema ${schema}`] = was ? 'dropped' : 'created'
  }
  for (const table of new Set([...Object.keys(before.counts), ...Object.keys(after.counts)])) {
    if (before.counts[table] !== after.counts[table]) {
      difference[table] = `${before.counts[table] ?? 'absent'} → ${after.counts[table] ?? 'absent'}`
    }
  }
  return difference
}

function quote(identifier: string) {
  return `"${identifier.replaceAll('"', '""')}"`
}
