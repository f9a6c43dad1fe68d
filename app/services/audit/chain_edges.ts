import { HASH, ID, LEAD_ID, LEAD_SEQ, PREV_HASH } from '#services/audit/entry_hasher'
import type { BinaryTuples } from '#services/audit/pg_binary_copy'
import type { UuidIndex } from '#services/audit/uuid_index'

/**
 * Each lead's chain as far as one chunk of the log takes it: its first
 * entry there (lead_seq, prev_hash, log_index, id) and its last (lead_seq,
 * hash), for the main thread to carry the chain from chunk to chunk. Packed
 * as fixed-size records, since there is one per lead and chunk and a
 * structured clone of as many arrays of strings costs the main thread more
 * than the stitching itself. A hash text is kept as its 32 bytes when it is
 * 64 lowercase hex digits, which every genuine one is; any other text goes
 * whole into `odd`, so that comparisons stay comparisons of the texts.
 */
export type Edges = {
  count: number
  bytes: Uint8Array
  /** [record * 2 + (0 for the first prev_hash, 1 for the last hash), text]. */
  odd: Array<[number, string]>
}

export const EDGE_BYTES = 104
const LEAD = 0
const FIRST_SEQ = 16
const LAST_SEQ = 20
const LOG_INDEX = 24
const ENTRY_ID = 32
const FIRST_PREV = 40
const LAST_HASH = 72

/** Where a hash text lies: in `bytes` at `at`, or whole in `odd`. */
export type HashText = { bytes: Uint8Array; at: number; odd: string | undefined }

/**
 * Packs the leads a chunk saw: `first[n]` and `last[n]` are where lead n's
 * first and last tuples begin in `rows`, `logIndex[n]` the first one's
 * log_index (-1 for none).
 */
export function packEdges(
  rows: BinaryTuples,
  leads: UuidIndex,
  first: Int32Array,
  last: Int32Array,
  logIndex: Float64Array
): Edges {
  const count = leads.size
  const bytes = Buffer.alloc(count * EDGE_BYTES)
  const odd: Edges['odd'] = []
  for (let n = 0; n < count; n++) packEdge(rows, first[n], last[n], logIndex[n], bytes, n, odd)
  return { count, bytes, odd }
}

/** One record (a function of its own, which V8 optimises once, not per chunk). */
function packEdge(
  rows: BinaryTuples,
  first: number,
  last: number,
  logIndex: number,
  bytes: Buffer,
  n: number,
  odd: Edges['odd']
) {
  const at = n * EDGE_BYTES
  rows.seek(first)
  rows.data.copy(bytes, at + LEAD, rows.start[LEAD_ID], rows.start[LEAD_ID] + 16)
  bytes.writeInt32LE(rows.int4(LEAD_SEQ), at + FIRST_SEQ)
  bytes.writeDoubleLE(logIndex, at + LOG_INDEX)
  bytes.writeDoubleLE(rows.int8(ID), at + ENTRY_ID)
  if (!rows.lowerHex(PREV_HASH, bytes, at + FIRST_PREV)) odd.push([n * 2, rows.text(PREV_HASH)!])
  rows.seek(last)
  bytes.writeInt32LE(rows.int4(LEAD_SEQ), at + LAST_SEQ)
  if (!rows.lowerHex(HASH, bytes, at + LAST_HASH)) odd.push([n * 2 + 1, rows.text(HASH)!])
}

/** Reads the records of `Edges` (which arrive from a worker as a plain Uint8Array). */
export class EdgeReader {
  readonly bytes: Buffer
  #odd: Map<number, string>

  constructor(edges: Edges) {
    this.bytes = Buffer.from(edges.bytes.buffer, edges.bytes.byteOffset, edges.bytes.byteLength)
    this.#odd = new Map(edges.odd)
  }

  leadAt(n: number) {
    return n * EDGE_BYTES + LEAD
  }

  firstSeq(n: number) {
    return this.bytes.readInt32LE(n * EDGE_BYTES + FIRST_SEQ)
  }

  lastSeq(n: number) {
    return this.bytes.readInt32LE(n * EDGE_BYTES + LAST_SEQ)
  }

  logIndex(n: number) {
    const index = this.bytes.readDoubleLE(n * EDGE_BYTES + LOG_INDEX)
    return index < 0 ? null : index
  }

  entryId(n: number) {
    return String(this.bytes.readDoubleLE(n * EDGE_BYTES + ENTRY_ID))
  }

  firstPrev(n: number): HashText {
    return { bytes: this.bytes, at: n * EDGE_BYTES + FIRST_PREV, odd: this.#odd.get(n * 2) }
  }

  lastHash(n: number): HashText {
    return { bytes: this.bytes, at: n * EDGE_BYTES + LAST_HASH, odd: this.#odd.get(n * 2 + 1) }
  }
}

export function sameHashText(a: HashText, b: HashText) {
  if (a.odd !== undefined || b.odd !== undefined) return a.odd === b.odd
  for (let i = 0; i < 32; i++) if (a.bytes[a.at + i] !== b.bytes[b.at + i]) return false
  return true
}

export function hashTextString(text: HashText) {
  return (
    text.odd ?? Buffer.from(text.bytes.buffer, text.bytes.byteOffset + text.at, 32).toString('hex')
  )
}
