import ApiProblem from '#exceptions/api_problem'

/** `order: 'asc'` pages oldest first (a queue worked from its oldest item); newest first otherwise. */
export type PageRequest = { limit?: number; cursor?: string; order?: 'asc' | 'desc' }
export type Page<Row> = { data: Row[]; nextCursor: string | null }
/** What the page key is: a UUIDv7, or a bigint from a sequence (append-only logs). */
export type CursorKey = 'uuid' | 'bigint'

export const DEFAULT_PAGE_SIZE = 50

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const BIGINT = /^[1-9][0-9]{0,18}$/

/**
 * Anything Lucid can page: a model query or a plain query builder. Both are
 * thenables, so awaiting the query runs it.
 */
type PageableQuery<Row> = PromiseLike<Row[]> & {
  where(column: string, operator: string, value: string): unknown
  orderBy(column: string, direction: 'asc' | 'desc'): unknown
  limit(limit: number): unknown
}

/**
 * Newest first, keyed on the UUIDv7 id (time-ordered, unique, so no row is
 * skipped or repeated when rows arrive between pages), or on the bigint id
 * of an append-only log (`key`). The cursor is the
 * last id of a page, base64url-encoded: opaque to callers, so its content
 * can change without breaking them.
 */
export async function paginate<Row extends { id: string | number }>(
  query: PageableQuery<Row>,
  page: PageRequest,
  column = 'id',
  key: CursorKey = 'uuid'
): Promise<Page<Row>> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE
  const ascending = page.order === 'asc'
  if (page.cursor !== undefined) {
    query.where(column, ascending ? '>' : '<', decodeCursor(page.cursor, key))
  }
  query.orderBy(column, ascending ? 'asc' : 'desc')
  // One row more than asked tells whether another page exists without a count.
  query.limit(limit + 1)
  const rows = await query
  const data = rows.slice(0, limit)
  const last = data[data.length - 1]
  return { data, nextCursor: rows.length > limit ? encodeCursor(String(last.id)) : null }
}

export function encodeCursor(id: string) {
  return Buffer.from(id, 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string, key: CursorKey = 'uuid') {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : ''
  // Past 2^63 - 1 Postgres would refuse the comparison: the cursor is as malformed as junk.
  const valid = key === 'uuid' ? UUID.test(id) : BIGINT.test(id) && BigInt(id) < 2n ** 63n
  if (!valid) {
    throw ApiProblem.unprocessable([
      {
        field: 'cursor',
        code: 'cursor',
        message: 'Pass the next_cursor of a previous page unchanged.',
      },
    ])
  }
  return id.toLowerCase()
}

/**
 * `paginate` in the order of another column (a name), ties broken by the
 * id: keyset on (column, id), so rows with equal values neither repeat nor
 * go missing. The cursor stays the last row's id; the value it stood at is
 * read back from that row, so a cursor is as short as any other. Text is
 * compared in `collation` (ICU's root locale by default: "alpha" before
 * "Bravo" before "Émile", where the database's C collation would not).
 */
export async function paginateSorted<Row extends { id: string }>(
  query: PageableQuery<Row> & {
    whereRaw(sql: string, bindings: unknown[]): unknown
    orderByRaw(sql: string, bindings: unknown[]): unknown
  },
  page: PageRequest,
  sort: { table: string; column: string; collation?: string }
): Promise<Page<Row>> {
  const ascending = page.order === 'asc'
  const column = `${sort.table}.${sort.column}`
  const collation = sort.collation ?? 'und-x-icu'
  if (page.cursor !== undefined) {
    const id = decodeCursor(page.cursor)
    query.whereRaw(
      `(?? COLLATE ??, ??) ${ascending ? '>' : '<'} ((SELECT ?? COLLATE ?? FROM ?? WHERE id = ?), ?::uuid)`,
      [column, collation, `${sort.table}.id`, sort.column, collation, sort.table, id, id]
    )
  }
  query.orderByRaw(`?? COLLATE ?? ${ascending ? 'asc' : 'desc'}`, [column, collation])
  // paginate orders by the id after the column, takes one row more and makes the cursor.
  return paginate(query, { ...page, cursor: undefined })
}
