import type { RawQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'

/**
 * Sends a statement whose text never changes as a named prepared statement:
 * each connection parses it once, and after its first five runs Postgres
 * keeps a generic plan instead of planning it again every time. Worth it for
 * the statements a lead's path repeats many times a second (the relay's take
 * of due deliveries plans in 0.27 ms, its generic plan in 0.01 ms;
 * BENCHMARKS.md, "Planning"). Only for fixed text naming its columns (a
 * `SELECT *` plan breaks when a migration adds one) and fixed tables (a
 * tenant table resolved through search_path is planned again whenever the
 * schema changes). One name per text: node-postgres refuses a name reused
 * with another text on the same connection. A connection pooler in
 * transaction mode would break named statements; Leadgate uses none.
 */
export function prepared(query: RawQueryBuilderContract, name: string) {
  query.knexQuery.options({ name })
  return query
}
