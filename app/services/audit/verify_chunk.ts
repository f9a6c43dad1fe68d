import { type Edges, packEdges } from '#services/audit/chain_edges'
import { EntryHasher, HASH, ID, LEAD_ID, LEAD_SEQ, PREV_HASH } from '#services/audit/entry_hasher'
import { RawFrontier, hexOf, rawHash } from '#services/audit/merkle_raw_frontier'
import { EMPTY_ROOT } from '#services/audit/merkle_tree'
import type { BinaryTuples } from '#services/audit/pg_binary_copy'
import { UuidIndex } from '#services/audit/uuid_index'

/**
 * The part of whole-log verification that needs no other part of the log:
 * one run of consecutive log indexes (a chunk), checked on its own so that
 * chunks can be checked in parallel. What crosses chunks (each lead's chain
 * from one chunk into the next, the tree above the chunks) is handed back as
 * edges and roots for the caller to stitch in log order.
 */

export type FailureReason =
  | 'hash_mismatch'
  | 'prev_hash_mismatch'
  | 'seq_gap'
  | 'missing_leaf'
  | 'checkpoint_root_mismatch'
  | 'checkpoint_signature_invalid'
  | 'checkpoint_beyond_log'
  | 'trail_missing'
  | 'chain_head_mismatch'
  | 'chain_head_missing'

export type LogFailure = {
  reason: FailureReason
  detail: string
  log_index?: number | null
  entry_id?: string
  lead_id?: string
  lead_seq?: number
  checkpoint_size?: number
}

export type ChunkResult = {
  count: number
  /** Failures found inside the chunk, in log order (at most `limit`). */
  failures: LogFailure[]
  counts: Partial<Record<FailureReason, number>>
  /** Each lead's first and last entry within the chunk. */
  edges: Edges
  /** For each checkpoint size in (start, end]: the root of the chunk's leaves up to it. */
  localRoots: Array<[number, string]>
  /** The root of the chunk's leaves [start, end). */
  root: string
}

/**
 * A chunk's entries as the worker read them (binary COPY rows, columns as
 * ENTRY_COLUMNS), either every tuple in stream order, each at log_index
 * `id - shift` (shift null: entries without a position, in id order), or
 * the tuples beginning at `at`, in log order, at `logIndexes`.
 */
export type ChunkRows =
  | { rows: BinaryTuples; shift: number | null }
  | { rows: BinaryTuples | null; at: number[]; logIndexes: number[] }

const hasher = new EntryHasher()
const EMPTY_LEAF = rawHash(EMPTY_ROOT)

/**
 * Checks a chunk's entries in log order: recomputes every entry hash and
 * each lead's chain inside the chunk, finds gaps in the indexes and builds
 * the chunk's own part of the tree.
 */
export function verifyChunk(
  chunk: ChunkRows,
  range: { start: number; end: number } | null,
  checkpointSizes: number[],
  limit = 100
): ChunkResult {
  if ('at' in chunk) {
    const check = new ChunkCheck(chunk.at.length, range, checkpointSizes, limit)
    for (const [i, tuple] of chunk.at.entries()) {
      chunk.rows!.seek(tuple)
      check.entry(chunk.rows!, chunk.logIndexes[i])
    }
    return check.result(chunk.rows)
  }
  const { rows, shift } = chunk
  // A sealed chunk holds at most its range; entries without a position are counted first.
  const capacity = range ? range.end - range.start : rows.count()
  const check = new ChunkCheck(capacity, range, checkpointSizes, limit)
  while (rows.next()) check.entry(rows, shift === null ? null : rows.int8(ID) - shift)
  return check.result(rows)
}

/**
 * One chunk's state. A class with a method per entry rather than closures
 * made per chunk: V8 compiles `entry` once, where a closure new to each
 * chunk sent the optimised loop back to the interpreter every time.
 */
class ChunkCheck {
  failures: LogFailure[] = []
  counts: ChunkResult['counts'] = {}
  frontier = new RawFrontier()
  localRoots: Array<[number, string]> = []
  #sizes: number[]
  #nextSize = 0
  #entries = 0
  // Per lead seen in the chunk, by its number in `leads`.
  leads: UuidIndex
  firstTuple: Int32Array
  firstLogIndex: Float64Array
  lastTuple: Int32Array
  lastSeq: Int32Array
  lastHashAt: Int32Array
  lastHashLength: Int32Array

  constructor(
    capacity: number,
    private range: { start: number; end: number } | null,
    checkpointSizes: number[],
    private limit: number
  ) {
    this.#sizes = range
      ? checkpointSizes.filter((size) => size > range.start && size <= range.end)
      : []
    this.leads = new UuidIndex(capacity)
    this.firstTuple = new Int32Array(capacity)
    this.firstLogIndex = new Float64Array(capacity)
    this.lastTuple = new Int32Array(capacity)
    this.lastSeq = new Int32Array(capacity)
    this.lastHashAt = new Int32Array(capacity)
    this.lastHashLength = new Int32Array(capacity)
  }

  /** The entry `rows` is on, at `logIndex` (null: an entry without a position). */
  entry(rows: BinaryTuples, logIndex: number | null) {
    const { data, start, length } = rows
    this.#entries++
    if (this.range && logIndex !== null) this.#fill(logIndex)
    const leadSeq = rows.int4(LEAD_SEQ)
    const recomputed = hasher.hash(rows)
    // The stored hash's bytes go where the leaf hash reads them.
    const leaf = this.frontier.leafInput
    const hexStored = rows.lowerHex(HASH, leaf, 1)
    const matches = hexStored && sameRaw(leaf, 1, recomputed)

    let lead = this.leads.find(data, start[LEAD_ID])
    if (lead >= 0) {
      if (leadSeq !== this.lastSeq[lead] + 1) {
        this.#fail({
          reason: 'seq_gap',
          ...where(rows, logIndex, leadSeq),
          detail: `lead_seq ${leadSeq} follows ${this.lastSeq[lead]}`,
        })
      } else if (
        !sameBytes(
          data,
          start[PREV_HASH],
          length[PREV_HASH],
          this.lastHashAt[lead],
          this.lastHashLength[lead]
        )
      ) {
        this.#fail({
          reason: 'prev_hash_mismatch',
          ...where(rows, logIndex, leadSeq),
          detail: `prev_hash is not the hash of lead_seq ${this.lastSeq[lead]}`,
        })
      }
    } else {
      lead = this.leads.add(data, start[LEAD_ID])
      this.firstTuple[lead] = rows.at
      this.firstLogIndex[lead] = logIndex ?? -1
    }
    this.lastTuple[lead] = rows.at
    this.lastSeq[lead] = leadSeq
    this.lastHashAt[lead] = start[HASH]
    this.lastHashLength[lead] = length[HASH]

    if (!matches) {
      this.#fail({
        reason: 'hash_mismatch',
        ...where(rows, logIndex, leadSeq),
        detail: `the entry's fields hash to ${hexOf(recomputed)}, not its stored ${rows.text(HASH)}`,
      })
    }
    if (this.range) {
      if (!hexStored) {
        // Read as the sealer's leafHash reads hex (capitals too), over zeros where it stops:
        // a text that is no hash cannot give back a sealed leaf, but the root stays one value.
        leaf.fill(0, 1)
        leaf.write(rows.text(HASH)!, 1, 32, 'hex')
      }
      this.frontier.appendLeaf()
      this.#reach()
    }
  }

  result(rows: BinaryTuples | null): ChunkResult {
    if (this.range) this.#fill(this.range.end)
    return {
      count: this.#entries,
      failures: this.failures,
      counts: this.counts,
      edges: packEdges(rows!, this.leads, this.firstTuple, this.lastTuple, this.firstLogIndex),
      localRoots: this.localRoots,
      root: this.frontier.root(),
    }
  }

  #fail(failure: LogFailure) {
    this.counts[failure.reason] = (this.counts[failure.reason] ?? 0) + 1
    if (this.failures.length < this.limit) this.failures.push(failure)
  }

  /** Records the roots of checkpoints that end where the tree now does. */
  #reach() {
    const sizes = this.#sizes
    while (
      this.#nextSize < sizes.length &&
      sizes[this.#nextSize] === this.range!.start + this.frontier.size
    ) {
      this.localRoots.push([sizes[this.#nextSize], this.frontier.root()])
      this.#nextSize++
    }
  }

  #fill(upTo: number) {
    const range = this.range!
    const missing = upTo - (range.start + this.frontier.size)
    if (missing <= 0) return
    this.#fail({
      reason: 'missing_leaf',
      log_index: range.start + this.frontier.size,
      detail: `log_index ${range.start + this.frontier.size}${missing > 1 ? ` to ${upTo - 1}` : ''} has no entry: sealed entries were removed`,
    })
    // Stand-ins keep later leaves at their index; no root over them can match.
    while (range.start + this.frontier.size < upTo) {
      this.frontier.appendLeafHash(EMPTY_LEAF)
      this.#reach()
    }
  }
}

function where(rows: BinaryTuples, logIndex: number | null, leadSeq: number) {
  return {
    log_index: logIndex,
    entry_id: String(rows.int8(ID)),
    lead_id: rows.uuid(LEAD_ID),
    lead_seq: leadSeq,
  }
}

/** Whether `bytes[at, at + 32)` are the raw hash `raw`. */
function sameRaw(bytes: Uint8Array, at: number, raw: string) {
  for (let i = 0; i < 32; i++) if (bytes[at + i] !== raw.charCodeAt(i)) return false
  return true
}

/** Whether two fields of the same COPY data hold the same text (UTF-8 is one byte string per text). */
function sameBytes(data: Uint8Array, a: number, aLength: number, b: number, bLength: number) {
  if (aLength !== bLength) return false
  for (let i = 0; i < aLength; i++) if (data[a + i] !== data[b + i]) return false
  return true
}
