import { createHash } from 'node:crypto'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { RawQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'

/**
 * Sends a statement whose text never changes as a named prepared statement:
 * each connection parses it once, and after its first five runs Postgres
 * keeps a generic plan instead of planning it again every time. Worth it for
 * the statements a lead's path repeats many times a second (the relay's take
 * of due deliveries plans in 0.27 ms, its generic plan in 0.01 ms;
 * docs/benchmarks/routing.md, "Planning"). Only for fixed text naming its columns (a
 * `SELECT *` plan breaks when a migration adds one) and fixed tables (a
 * tenant table resolved through search_path is planned again whenever the
 * schema changes: `runPrepared` is for those). One name per text:
 * node-postgres refuses a name reused with another text on the same
 * connection. A connection pooler in transaction mode would break named
 * statements; Leadgate uses none.
 */
export function prepared(query: RawQueryBuilderContract, name: string) {
  query.knexQuery.options({ name })
  return query
}

/**
 * How many statements of `runPrepared` one connection keeps, and how long one
 * stays unused before another may take its place. Each holds its parsed
 * query and generic plan in the Postgres backend, about 0.4 MB for the intake
 * write (docs/operations.md, "Prepared statements"), so a connection keeps at
 * most ~6 MB of them however many publishers deliver.
 */
export const PREPARED_PER_CONNECTION = { limit: 16, idleMs: 10 * 60_000 }

type PgConnection = { connection: { parsedStatements: Record<string, string> } }
/** Per connection, the names `runPrepared` left prepared and when each last ran, least recent first. */
const preparedOn = new WeakMap<PgConnection, Map<string, number>>()

/**
 * Runs `sql` on the transaction's connection as a named prepared statement,
 * for a statement whose text comes in a few shapes per `key` and is sent many
 * times a second: the intake write, whose tables resolve through the
 * publisher's search_path. Postgres analyses a prepared statement again
 * whenever search_path differs from the one it was prepared under, so the
 * name covers the key (the tenant schema) as well as the text, and each
 * tenant's statements keep their generic plan. A connection keeps at most
 * `limit`: when it is full, a statement it has not prepared runs unnamed
 * (parsed and planned for this run only, as any statement) unless the least
 * recently run one has been idle `idleMs`, which is then dropped (DEALLOCATE)
 * to make room. So plan-cache memory stays bounded, and when more tenants
 * deliver at once than a connection keeps, those it prepared first keep
 * their plans while they keep delivering and the rest cost what they cost
 * before, never an extra round trip per write.
 */
export async function runPrepared(
  trx: TransactionClientContract,
  key: string,
  sql: string,
  bindings: unknown[],
  options = PREPARED_PER_CONNECTION
) {
  const name = `lg_${createHash('sha1').update(key).update('\0').update(sql).digest('base64url')}`
  const connection: PgConnection = await trx.knexClient.client.acquireConnection()
  let names = preparedOn.get(connection)
  if (!names) preparedOn.set(connection, (names = new Map()))
  const now = Date.now()
  if (!names.delete(name)) {
    for (const [oldest, lastRun] of names) {
      if (names.size < options.limit) break
      if (now - lastRun < options.idleMs) return trx.rawQuery(sql, bindings as any[])
      names.delete(oldest)
      await trx.rawQuery(`DEALLOCATE "${oldest}"`)
      delete connection.connection.parsedStatements[oldest]
    }
  }
  try {
    return await prepared(trx.rawQuery(sql, bindings as any[]), name)
  } finally {
    // A statement that failed may still have been prepared (an error in its execution, not its parse).
    if (connection.connection.parsedStatements[name] !== undefined) names.set(name, now)
  }
}
