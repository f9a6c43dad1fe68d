import { hash } from 'node:crypto'
import { EMPTY_ROOT, Frontier, leafHash } from '#services/merkle_tree'

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

/** A lead's first and last entry within the chunk: [lead, firstSeq, firstPrev, firstLogIndex, firstEntryId, lastSeq, lastHash]. */
export type Edge = [string, number, string, number | null, string, number, string]

export type ChunkResult = {
  count: number
  /** Failures found inside the chunk, in log order (at most `limit`). */
  failures: LogFailure[]
  counts: Partial<Record<FailureReason, number>>
  edges: Edge[]
  /** For each checkpoint size in (start, end]: the root of the chunk's leaves up to it. */
  localRoots: Array<[number, string]>
  /** The root of the chunk's leaves [start, end). */
  root: string
}

/** Columns, in order, of a row handed to `verifyChunk` (all as the text Postgres sent). */
export const CHUNK_COLUMNS = (ts: string) =>
  `e.id, e.lead_id, e.lead_seq, e.event, ${ts}, e.actor, e.status_from, e.status_to, e.prev_hash, e.hash`

const DOMAIN = 'leadgate-audit/v1\n'
const q = JSON.stringify

/**
 * The entry hash for the fixed shape of a stored entry. RFC 8785 serialises
 * strings exactly as JSON.stringify does and small integers as their
 * decimal form, so with the keys written in code-unit order this is the
 * canonical JSON `entryHash` gets from `canonicalize`, at a third of the
 * cost; a test holds the two together.
 */
export function fastEntryHash(
  event: string,
  ts: string,
  actor: string,
  leadId: string,
  leadSeq: number,
  statusFrom: string | null,
  statusTo: string,
  prevHash: string
) {
  return hash(
    'sha256',
    `${DOMAIN}{"actor":${q(actor)},"event":${q(event)},"lead_id":${q(leadId)},"lead_seq":${leadSeq},` +
      `"prev_hash":${q(prevHash)},"status_from":${q(statusFrom)},"status_to":${q(statusTo)},"ts":${q(ts)}}`,
    'hex'
  )
}

/**
 * A timestamptz as Postgres prints it with TimeZone UTC and DateStyle ISO
 * ("2026-11-22 04:18:55.12+00") in the hashed form "2026-11-22T04:18:55.120Z".
 * Cheaper here than `to_char` in the database, which shares the machine.
 */
export function isoFromPg(text: string) {
  if (text.charCodeAt(19) !== 46) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`
  const end = text.indexOf('+', 20)
  const fraction = `${text.slice(20, end < 0 ? text.length : end)}00`.slice(0, 3)
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`
}

type Row = Array<string | null>

/**
 * Checks entries (rows of CHUNK_COLUMNS) in log order: `logIndexes[i]` is
 * the index of `rows[i]` within [start, end), or, with `range` null, the
 * rows are entries without a position in id order. Recomputes every entry
 * hash and each lead's chain inside the chunk, finds gaps in the indexes and
 * builds the chunk's own part of the tree.
 */
export function verifyChunk(
  logIndexes: number[] | null,
  rows: Row[],
  range: { start: number; end: number } | null,
  checkpointSizes: number[],
  limit = 100
): ChunkResult {
  const failures: LogFailure[] = []
  const counts: ChunkResult['counts'] = {}
  const fail = (failure: LogFailure) => {
    counts[failure.reason] = (counts[failure.reason] ?? 0) + 1
    if (failures.length < limit) failures.push(failure)
  }
  const frontier = new Frontier()
  const sizes = range
    ? checkpointSizes.filter((size) => size > range.start && size <= range.end)
    : []
  const localRoots: Array<[number, string]> = []
  let nextSize = 0
  const reach = () => {
    while (nextSize < sizes.length && sizes[nextSize] === range!.start + frontier.size) {
      localRoots.push([sizes[nextSize], frontier.root()])
      nextSize++
    }
  }
  const fill = (upTo: number) => {
    const missing = upTo - (range!.start + frontier.size)
    if (missing <= 0) return
    fail({
      reason: 'missing_leaf',
      log_index: range!.start + frontier.size,
      detail: `log_index ${range!.start + frontier.size}${missing > 1 ? ` to ${upTo - 1}` : ''} has no entry: sealed entries were removed`,
    })
    // Stand-ins keep later leaves at their index; no root over them can match.
    while (range!.start + frontier.size < upTo) {
      frontier.append(EMPTY_ROOT)
      reach()
    }
  }

  const chains = new Map<string, Edge>()
  for (const [i, row] of rows.entries()) {
    const logIndex = logIndexes ? logIndexes[i] : null
    if (range && logIndex !== null) fill(logIndex)
    const entryId = row[0]!
    const leadId = row[1]!
    const leadSeq = Number(row[2])
    const prevHash = row[8]!
    const stored = row[9]!

    const edge = chains.get(leadId)
    if (edge) {
      if (leadSeq !== edge[5] + 1) {
        fail({
          reason: 'seq_gap',
          log_index: logIndex,
          entry_id: entryId,
          lead_id: leadId,
          lead_seq: leadSeq,
          detail: `lead_seq ${leadSeq} follows ${edge[5]}`,
        })
      } else if (prevHash !== edge[6]) {
        fail({
          reason: 'prev_hash_mismatch',
          log_index: logIndex,
          entry_id: entryId,
          lead_id: leadId,
          lead_seq: leadSeq,
          detail: `prev_hash is not the hash of lead_seq ${edge[5]}`,
        })
      }
      edge[5] = leadSeq
      edge[6] = stored
    } else {
      chains.set(leadId, [leadId, leadSeq, prevHash, logIndex, entryId, leadSeq, stored])
    }
    const recomputed = fastEntryHash(
      row[3]!,
      isoFromPg(row[4]!),
      row[5]!,
      leadId,
      leadSeq,
      row[6],
      row[7]!,
      prevHash
    )
    if (recomputed !== stored) {
      fail({
        reason: 'hash_mismatch',
        log_index: logIndex,
        entry_id: entryId,
        lead_id: leadId,
        lead_seq: leadSeq,
        detail: `the entry's fields hash to ${recomputed}, not its stored ${stored}`,
      })
    }
    if (range) {
      frontier.append(leafHash(stored))
      reach()
    }
  }
  if (range) fill(range.end)
  return {
    count: rows.length,
    failures,
    counts,
    edges: [...chains.values()],
    localRoots,
    root: frontier.root(),
  }
}
