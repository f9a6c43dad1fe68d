import pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import services from '#config/services'
import { BinaryTuples } from '#services/audit/pg_binary_copy'

/** Every column as the text Postgres sent: parsing is left to whoever needs a value. */
const RAW_TYPES = { getTypeParser: () => (value: string) => value }

/**
 * One read-only, repeatable-read transaction on a connection of its own:
 * every query sees the same moment of the log (checkpoint, positions and
 * entries agree), and a long export or verification never holds a slot of
 * the request pool. Exports read rows in keyset-paginated batches or as a
 * COPY stream, so their memory stays bounded whatever the size of the log.
 */
export default class AuditSnapshot {
  private constructor(private client: pg.Client) {}

  static async open() {
    const client = new pg.Client({ connectionString: services.databaseUrl.href })
    await client.connect()
    try {
      // Timestamps print as isoFromPg reads them; no JIT compiling for queries that stream.
      await client.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO'; SET jit = off")
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    } catch (error) {
      await client.end()
      throw error
    }
    return new AuditSnapshot(client)
  }

  /** Opens a snapshot for `work` and always closes it. */
  static async run<T>(work: (snapshot: AuditSnapshot) => Promise<T>) {
    const snapshot = await AuditSnapshot.open()
    try {
      return await work(snapshot)
    } finally {
      await snapshot.close()
    }
  }

  async query<T = Record<string, any>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.client.query(sql, params)
    return result.rows as T[]
  }

  /** One batch of rows as arrays of raw text: for keyset-paginated reads. */
  async raw(sql: string, params: unknown[] = []): Promise<Array<Array<string | null>>> {
    const result = await this.client.query({
      text: sql,
      values: params,
      rowMode: 'array',
      types: RAW_TYPES,
    })
    return result.rows
  }

  /**
   * `COPY (query) TO STDOUT`: Postgres writes the file itself and the bytes
   * pass through untouched, with the socket's own backpressure. COPY takes
   * no parameters: values must be inlined with `literal`.
   */
  copyOut(query: string, options: string): AsyncIterable<Buffer> {
    return this.client.query(copyTo(`COPY (${query}) TO STDOUT WITH (${options})`))
  }

  /** A query's rows in binary COPY format, read whole (see `BinaryTuples`): for what fits in memory. */
  binaryTuples(query: string, fields: number) {
    return BinaryTuples.read(this.client, query, fields)
  }

  literal(value: string) {
    return this.client.escapeLiteral(value)
  }

  /** Ending the connection ends the read-only transaction with it, even with a cursor half read. */
  async close() {
    await this.client.end().catch(() => {})
  }
}
