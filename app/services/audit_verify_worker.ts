import { parentPort, workerData } from 'node:worker_threads'
import pg from 'pg'
import { CHUNK_COLUMNS, verifyChunk } from '#services/audit_verify_chunk'

/**
 * A thread of whole-log verification (AuditVerifierService): joins the
 * caller's exported snapshot on a connection of its own, then checks the
 * chunks it is sent. Hashing is most of the work, so two threads on two
 * cores nearly halve the time.
 */
export type WorkerInput = { connectionString: string; snapshot: string; checkpointSizes: number[] }
export type Task = { id: number; range: { start: number; end: number } | null }

const RAW_TYPES = { getTypeParser: () => (value: string) => value }
const COLUMNS = CHUNK_COLUMNS('e.ts')
const POSITIONS = `SELECT log_index, entry_id FROM audit.log_positions
  WHERE log_index >= $1 AND log_index < $2 ORDER BY log_index`
// The entries of a chunk are, but for late commits, one run of ids: a range scan, no join per row.
const ENTRIES_BETWEEN = `SELECT ${COLUMNS} FROM audit.entries e WHERE e.id BETWEEN $1 AND $2`
const ENTRIES_LISTED = `SELECT ${COLUMNS} FROM audit.entries e WHERE e.id = ANY($1::bigint[])`
const UNSEALED = `SELECT ${COLUMNS} FROM audit.entries e
  WHERE NOT EXISTS (SELECT 1 FROM audit.log_positions p WHERE p.entry_id = e.id) ORDER BY e.id`

type Row = Array<string | null>

async function raw(text: string, values: unknown[]): Promise<Row[]> {
  return (await client.query({ text, values, rowMode: 'array', types: RAW_TYPES })).rows
}

/** The chunk's entries in log order, with their indexes; a position whose entry is gone is left out. */
async function sealedChunk(start: number, end: number) {
  const positions = await raw(POSITIONS, [start, end])
  if (positions.length === 0) return { logIndexes: [], rows: [] }
  let low = Number.POSITIVE_INFINITY
  let high = 0
  for (const [, entryId] of positions) {
    const id = Number(entryId)
    if (id < low) low = id
    if (id > high) high = id
  }
  const entries =
    high - low < 2 * positions.length + 1024
      ? await raw(ENTRIES_BETWEEN, [low, high])
      : await raw(ENTRIES_LISTED, [`{${positions.map((p) => p[1]).join(',')}}`])
  const byId = new Map(entries.map((row) => [row[0], row]))
  const logIndexes: number[] = []
  const rows: Row[] = []
  for (const [logIndex, entryId] of positions) {
    const row = byId.get(entryId)
    if (!row) continue
    logIndexes.push(Number(logIndex))
    rows.push(row)
  }
  return { logIndexes, rows }
}

const input = workerData as WorkerInput
if (!/^[0-9A-F-]+$/i.test(input.snapshot)) throw new Error('not a snapshot id')

const client = new pg.Client({ connectionString: input.connectionString })
await client.connect()
// isoFromPg reads timestamps in this form.
await client.query("SET TimeZone = 'UTC'")
await client.query("SET DateStyle = 'ISO'")
await client.query('SET jit = off')
// Chunks are small and two threads already share the cores: no parallel query per chunk.
await client.query('SET max_parallel_workers_per_gather = 0')
await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
await client.query(`SET TRANSACTION SNAPSHOT '${input.snapshot}'`)
parentPort!.postMessage({ ready: true })

parentPort!.on('message', async (task: Task | 'stop') => {
  if (task === 'stop') {
    await client.end().catch(() => {})
    parentPort!.close()
    return
  }
  try {
    const { logIndexes, rows } = task.range
      ? await sealedChunk(task.range.start, task.range.end)
      : { logIndexes: null, rows: await raw(UNSEALED, []) }
    const result = verifyChunk(logIndexes, rows, task.range, input.checkpointSizes)
    parentPort!.postMessage({ id: task.id, result })
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: (error as Error).message })
  }
})
