import db from '@adonisjs/lucid/services/db'

export type DatabaseSnapshot = {
  schemas: string[]
  counts: Record<string, number>
  digests: Record<string, string>
}

const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema']

/**
 * Columns a request may touch without changing anything a caller owns: a key's last use, a
 * session's last sight. Everything else, in every row of every table, is in the digest.
 */
/**
 * Tables whose contents are compared, not only counted: the public schema, where a refused
 * request could change a row in place. The audit schema is append-only (triggers refuse
 * UPDATE), a publisher's schema is written only by intake, and the outbox's delivery tables
 * change under the relay of their own accord: for those the row count is the check.
 */
const COUNTED_ONLY = new Set([
  'public.outbox_events',
  'public.webhook_deliveries',
  'public.webhook_attempts',
  'public.webhook_recoveries',
  'public.access_log',
])
/** A sixth of the 6,400 lock slots of a default Postgres (64 per connection, 100 connections). */
const TABLES_PER_STATEMENT = 1000

const digested = (schema: string, name: string) => schema === 'public' && !COUNTED_ONLY.has(name)

const VOLATILE: Record<string, string[]> = {
  'public.api_keys': ['last_used_at', 'updated_at'],
  'public.oauth_clients': ['last_used_at', 'updated_at'],
  'public.user_sessions': ['last_seen_at', 'updated_at'],
}

/**
 * The database at a glance: every schema, the row count of every table in the shared schemas
 * (public, audit) and in each publisher schema made since the running test group began, and a
 * digest of the contents of those a request could change in place. A refused request must
 * leave this exactly as it was: no row added or removed, none changed, no schema made or
 * dropped. A request can only reach the publishers it names, and a test's requests name the
 * publishers its group made; counting the hundreds of schemas the rest of the suite made cost
 * seconds a snapshot and made the suite's time grow with the square of its length.
 */
export async function snapshotDatabase(): Promise<DatabaseSnapshot> {
  const listed = await rows<{ nspname: string; oid: number }>(
    `SELECT nspname, oid::bigint AS oid FROM pg_namespace
      WHERE nspname NOT IN (${SYSTEM_SCHEMAS.map(() => '?').join(', ')})
        AND nspname NOT LIKE 'pg\\_%' ORDER BY nspname`,
    SYSTEM_SCHEMAS
  )
  const schemas = listed.map((row) => row.nspname)
  const counted = listed
    .filter((row) => !row.nspname.startsWith('pub_') || Number(row.oid) > lastSchemaBeforeGroup)
    .map((row) => row.nspname)
  // pg_class rather than information_schema.tables, which checks every table's privileges
  // before it filters by schema. The application's role may not read some audit tables.
  const tables = await rows<{ table_schema: string; table_name: string }>(
    `SELECT n.nspname AS table_schema, c.relname AS table_name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY(?)
        AND has_table_privilege(c.oid, 'SELECT') ORDER BY 1, 2`,
    [counted]
  )
  if (tables.length === 0) return { schemas, counts: {}, digests: {} }

  // One statement per slice of tables: a statement holds a lock on every table it reads until it
  // ends, and Postgres shares one lock table (max_locks_per_transaction × max_connections) among
  // all its sessions; a publisher's schema adds a dozen tables, so the whole database in one
  // statement runs out of shared memory once the suite has made a few hundred publishers.
  const measured: { name: string; total: number; digest: string }[] = []
  for (let start = 0; start < tables.length; start += TABLES_PER_STATEMENT) {
    const slice = tables.slice(start, start + TABLES_PER_STATEMENT)
    measured.push(
      ...(await rows<{ name: string; total: number; digest: string }>(
        slice
          .map(({ table_schema: schema, table_name: table }) => measure(schema, table))
          .join(' UNION ALL ')
      ))
    )
  }
  return {
    schemas,
    counts: Object.fromEntries(measured.map((row) => [row.name, row.total])),
    digests: Object.fromEntries(measured.map((row) => [row.name, row.digest])),
  }
}

/** The newest schema's oid when the running group (or ungrouped test) began: tests/bootstrap.ts. */
let lastSchemaBeforeGroup = 0

export async function markGroupStart() {
  const [row] = await rows<{ last: number }>('SELECT max(oid)::bigint AS last FROM pg_namespace')
  lastSchemaBeforeGroup = Number(row.last)
}

async function rows<Row>(sql: string, bindings: unknown[] = []): Promise<Row[]> {
  const result = await db.rawQuery(sql, bindings as any[])
  return result.rows
}

/**
 * What differs between two snapshots, e.g. `{ "public.labels": "3 → 4" }`, or
 * `"rows changed"` when the count held and the contents did not; empty when nothing changed.
 */
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
    } else if (before.digests[table] !== after.digests[table]) {
      difference[table] = 'rows changed'
    }
  }
  return difference
}

/** A table's row count and, where contents are compared, a digest of its rows. */
function measure(schema: string, table: string) {
  const name = `${schema}.${table}`
  const row = `(to_jsonb(t)${(VOLATILE[name] ?? []).map((column) => ` - '${column}'`).join('')})::text`
  const digest = digested(schema, name)
    ? `md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), ''))`
    : 'NULL'
  return `SELECT '${name.replaceAll("'", "''")}' AS name, count(*)::int AS total, ${digest} AS digest
            FROM ${quote(schema)}.${quote(table)} t`
}

function quote(identifier: string) {
  return `"${identifier.replaceAll('"', '""')}"`
}
