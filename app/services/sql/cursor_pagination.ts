import ApiProblem from '#exceptions/api_problem'

export type PageRequest = { limit?: number; cursor?: string }
export type Page<Row> = { data: Row[]; nextCursor: string | null }

export const DEFAULT_PAGE_SIZE = 50

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
 * skipped or repeated when rows arrive between pages). The cursor is the
 * last id of a page, base64url-encoded: opaque to callers, so its content
 * can change without breaking them.
 */
export async function paginate<Row extends { id: string }>(
  query: PageableQuery<Row>,
  page: PageRequest,
  column = 'id'
): Promise<Page<Row>> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE
  if (page.cursor !== undefined) {
    query.where(column, '<', decodeCursor(page.cursor))
  }
  query.orderBy(column, 'desc')
  // One row more than asked tells whether another page exists without a count.
  query.limit(limit + 1)
  const rows = await query
  const data = rows.slice(0, limit)
  return { data, nextCursor: rows.length > limit ? encodeCursor(data[data.length - 1].id) : null }
}

/** The `{data, next_cursor}` body of every list. */
export function pageToJson<Row, Json>(page: Page<Row>, toJson: (row: Row) => Json) {
  return { data: page.data.map(toJson), next_cursor: page.nextCursor }
}

export function encodeCursor(id: string) {
  return Buffer.from(id, 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string) {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : ''
  if (!UUID.test(id)) {
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
