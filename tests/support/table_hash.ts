import db from '@adonisjs/lucid/services/db'

/**
 * Columns that change on a request that changes nothing a caller owns: the key's last use,
 * a limiter's counters. Everything else in every table of every schema is in the hash.
 */
const VOLATILE: Record<string, string[]> = {
  'public.api_keys': ['last_used_at'],
  'public.oauth_clients': ['last_used_at'],
  'public.user_sessions': ['last_seen_at'],
}
const SKIPPED_TABLES = new Set([
  'public.rate_limits',
  'public.adonis_schema',
  'public.adonis_schema_versions',
])

/** One digest per table of the application's schemas, contents included (not row counts). */
export async function tableHashes() {
  const { rows: tables } = await db.rawQuery<{
    rows: { schema: string; name: string }[]
  }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE'
        AND (table_schema IN ('public', 'audit') OR table_schema LIKE 'pub\\_%')
      ORDER BY 1, 2`
  )
  const digests: Record<string, string> = {}
  for (const { schema, name } of tables) {
    const qualified = `${schema}.${name}`
    if (SKIPPED_TABLES.has(qualified)) continue
    const minus = (VOLATILE[qualified] ?? []).map((column) => ` - '${column}'`).join('')
    const { rows } = await db.rawQuery(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(r, '|' ORDER BY r), '')) AS digest
         FROM (SELECT (to_jsonb(t)${minus})::text AS r FROM "${schema}"."${name}" t) rows`
    )
    digests[qualified] = `${rows[0].n}:${rows[0].digest}`
  }
  return digests
}

/** The tables whose contents differ between two hashes. */
export function changedTables(before: Record<string, string>, after: Record<string, string>) {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter((name) => before[name] !== after[name]).sort()
}
