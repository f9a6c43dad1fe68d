import { parentPort, workerData } from 'node:worker_threads'
import pg from 'pg'
import { ENTRY_COLUMNS, ENTRY_FIELDS, ID } from '#services/audit/entry_hasher'
import { type ChunkRows, verifyChunk } from '#services/audit/verify_chunk'
import { BinaryTuples } from '#services/audit/pg_binary_copy'

/**
 * A thread of whole-log verification (AuditVerifierService): joins the
 * caller's exported snapshot on a connection of its own, then checks the
 * chunks it is sent. Rows arrive in Postgres' binary COPY format and are
 * hashed where they lie, so the driver never makes a string of them.
 */
export type WorkerInput = { connectionString: string; snapshot: string; checkpointSizes: number[] }
/**
 * A chunk of log indexes [start, end), whose entry ids are the indexes plus
 * `shift` when the caller found them so; or (`range` null) entries without
 * a position: those after the last sealed id, or those up to it.
 */
export type Task =
  | { id: number; range: { start: number; end: number }; shift: number | null }
  | { id: number; range: null; unsealed: 'after' | 'upTo'; lastSealedId: number }

/** Buffers of chunks already checked: two chunks are in flight at a time, so two are enough. */
const spare: Buffer[] = []
/** Reads one after the other (pg will no longer queue them): the next chunk's while this one is hashed. */
let reading: Promise<unknown> = Promise.resolve()
const read = (query: string, fields: number) => {
  const rows = reading.then(() => BinaryTuples.read(client, query, fields, spare.pop()))
  reading = rows.catch(() => {})
  return rows
}
const entries = (where: string) =>
  read(`SELECT ${ENTRY_COLUMNS} FROM audit.entries e WHERE ${where}`, ENTRY_FIELDS)

/** The chunk's entries in log order, with their indexes; a position whose entry is gone is left out. */
async function sealedChunk(start: number, end: number, shift: number | null): Promise<ChunkRows> {
  if (shift !== null) {
    if (!Number.isSafeInteger(shift)) throw new Error('not a shift')
    // Ids run straight with the indexes: the entries alone, in id order, are the chunk in log order.
    return {
      rows: await entries(`e.id BETWEEN ${start + shift} AND ${end - 1 + shift} ORDER BY e.id`),
      shift,
    }
  }
  const positions = await read(
    `SELECT log_index, entry_id FROM audit.log_positions
     WHERE log_index >= ${start} AND log_index < ${end} ORDER BY log_index`,
    2
  )
  const { indexes, ids, low, high } = positionsOf(positions)
  spare.push(positions.storage)
  if (ids.length === 0) return { rows: null, at: [], logIndexes: [] }

  // The entries of a chunk are, but for late commits, one run of ids: a range scan, no join per row.
  const dense = high - low < 2 * ids.length + 1024
  const rows = await entries(
    dense ? `e.id BETWEEN ${low} AND ${high}` : `e.id = ANY('{${ids.join(',')}}'::bigint[])`
  )
  return inLogOrder(rows, ids, indexes, dense ? low : -1, high)
}

// The loops below are functions of their own: V8 then optimises them once, not on each chunk's stack.

function positionsOf(positions: BinaryTuples) {
  const indexes: number[] = []
  const ids: number[] = []
  let low = Number.POSITIVE_INFINITY
  let high = 0
  while (positions.next()) {
    const id = positions.int8(1)
    indexes.push(positions.int8(0))
    ids.push(id)
    if (id < low) low = id
    if (id > high) high = id
  }
  return { indexes, ids, low, high }
}

/** Matches positions with the rows read for them, by id: an array over [low, high], or a Map for `low` -1. */
function inLogOrder(
  rows: BinaryTuples,
  ids: number[],
  indexes: number[],
  low: number,
  high: number
): ChunkRows {
  const byId = low < 0 ? new Map<number, number>() : null
  const dense = low < 0 ? null : new Int32Array(high - low + 1).fill(-1)
  while (rows.next()) {
    if (byId) byId.set(rows.int8(ID), rows.at)
    else dense![rows.int8(ID) - low] = rows.at
  }
  const logIndexes: number[] = []
  const at: number[] = []
  for (const [i, id] of ids.entries()) {
    const tuple = byId ? (byId.get(id) ?? -1) : dense![id - low]
    if (tuple < 0) continue
    logIndexes.push(indexes[i])
    at.push(tuple)
  }
  return { rows, at, logIndexes }
}

/**
 * Entries without a position, in id order. After the last sealed id that is
 * every entry, a range scan; up to it (late commits, or positions removed)
 * it takes an anti-join over the whole table, which the caller asks for only
 * when it counted more entries there than positions.
 */
async function unsealed(which: 'after' | 'upTo', lastSealedId: number): Promise<ChunkRows> {
  if (!Number.isSafeInteger(lastSealedId)) throw new Error('not an entry id')
  const rows = await entries(
    which === 'after'
      ? `e.id > ${lastSealedId} ORDER BY e.id`
      : `e.id <= ${lastSealedId} AND NOT EXISTS (SELECT 1 FROM audit.log_positions p WHERE p.entry_id = e.id) ORDER BY e.id`
  )
  return { rows, shift: null }
}

const input = workerData as WorkerInput
if (!/^[0-9A-F-]+$/i.test(input.snapshot)) throw new Error('not a snapshot id')

const client = new pg.Client({ connectionString: input.connectionString })
await client.connect()
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
    const rows = task.range
      ? await sealedChunk(task.range.start, task.range.end, task.shift)
      : await unsealed(task.unsealed, task.lastSealedId)
    const result = verifyChunk(rows, task.range, input.checkpointSizes)
    if (rows.rows) spare.push(rows.rows.storage)
    parentPort!.postMessage({ id: task.id, result })
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: (error as Error).message })
  }
})
