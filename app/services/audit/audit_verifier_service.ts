import { availableParallelism } from 'node:os'
import services from '#config/services'
import {
  CheckpointSigner,
  verifyCheckpoint,
  type Checkpoint,
} from '#services/audit/checkpoint_signing'
import { LeadChains } from '#services/audit/lead_chains'
import AuditSnapshot from '#services/audit/snapshot'
import { toCheckpoint } from '#services/audit/audit_sealer_service'
import type { ChunkResult, FailureReason, LogFailure } from '#services/audit/verify_chunk'
import AuditVerifyPool from '#services/audit/verify_pool'
import { EMPTY_ROOT, Frontier } from '#services/audit/merkle_tree'

export type { FailureReason, LogFailure }

export type LogVerification = {
  lead_id: null
  valid: boolean
  /** Entries whose hash and chain link were recomputed. */
  entries: number
  sealed: number
  unsealed: number
  leads: number
  checkpoints: number
  tree_size: number
  root: string
  /** The first failure in log order, or null. */
  broken_at: LogFailure | null
  /** The first 100 failures in log order. */
  failures: LogFailure[]
  failure_counts: Partial<Record<FailureReason, number>>
  duration_ms: number
}

/** Leaves per chunk (2^14): a power of two, so a chunk is one node of the tree. */
const CHUNK_LEVEL = 14
const MAX_LISTED = 100

/**
 * Recomputes the whole log from its entries, trusting nothing stored but
 * them and the public key: every entry hash, every lead's chain and
 * `lead_seq` run, each chain head, the tree root at every checkpoint and
 * every checkpoint's signature, and names the first failure in log order.
 *
 * The log is cut into chunks of 2^14 consecutive indexes that worker
 * threads check in parallel inside one exported snapshot; this thread
 * stitches them in order: each lead's chain across chunks, the tree from
 * the chunks' roots. Memory grows with the number of leads, not entries.
 */
export default class AuditVerifierService {
  constructor(
    private given: CheckpointSigner | null = null,
    private threads = Math.max(1, Math.min(4, availableParallelism())),
    /** Tests use tiny chunks to cross many chunk boundaries. */
    private chunkLevel = CHUNK_LEVEL
  ) {}

  /** Resolved on first use, so a missing key fails what needs it, not every audit route. */
  private get signer() {
    return this.given ?? CheckpointSigner.configured()
  }

  async verifyLog(): Promise<LogVerification> {
    const started = performance.now()
    return AuditSnapshot.run(async (snapshot) => {
      const [{ id: exported }] = await snapshot.query<{ id: string }>(
        'SELECT pg_export_snapshot() AS id'
      )
      const checkpointRows = await snapshot.query(
        'SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints ORDER BY size'
      )
      const checkpoints = checkpointRows.map(toCheckpoint)
      const [{ size, last }] = await snapshot.query<{ size: string; last: string }>(
        'SELECT coalesce(max(log_index) + 1, 0) AS size, coalesce(max(entry_id), 0) AS last FROM audit.log_positions'
      )
      const treeSize = Number(size)
      const lastSealedId = Number(last)
      const chunk = 2 ** this.chunkLevel
      const ranges: Array<{ start: number; end: number }> = []
      for (let start = 0; start < treeSize; start += chunk) {
        ranges.push({ start, end: Math.min(start + chunk, treeSize) })
      }

      const starting = AuditVerifyPool.start(this.threads, {
        connectionString: services.databaseUrl.href,
        snapshot: exported,
        checkpointSizes: checkpoints.map((checkpoint) => checkpoint.size),
      })
      starting.catch(() => {})
      try {
        // Asked while the threads start; what is needed last is read while they hash.
        const shiftOf = await this.straightChunks(snapshot, treeSize)
        const upToLastSealed = snapshot.query<{ n: string }>(
          'SELECT count(*) AS n FROM audit.entries WHERE id <= $1',
          [lastSealedId]
        )
        const heads = upToLastSealed.then(() =>
          snapshot.binaryTuples('SELECT lead_id, last_seq, last_hash FROM audit.chain_heads', 3)
        )
        heads.catch(() => {})
        const pool = await starting
        // Unsealed but for late commits: read first (one range scan), stitched last.
        const after = pool.submit({
          id: ranges.length,
          range: null,
          unsealed: 'after',
          lastSealedId,
        })
        const results = ranges.map((range, id) =>
          pool.submit({ id, range, shift: shiftOf.get(id) ?? null })
        )
        const report = new Report()
        const chains = new LeadChains()
        const frontier = new Frontier()
        const bySize = new Map(checkpoints.map((checkpoint) => [checkpoint.size, checkpoint]))
        let root = EMPTY_ROOT
        let sealed = 0
        let unsealed = 0

        if (bySize.has(0)) this.checkCheckpoint(bySize.get(0)!, EMPTY_ROOT, report)
        for (const [i, range] of ranges.entries()) {
          const result = await results[i]
          const failures = [...result.failures, ...this.stitch(chains, result)]
          for (const [at, localRoot] of result.localRoots) {
            this.checkCheckpoint(bySize.get(at)!, frontier.rootWith(localRoot), report, failures)
          }
          root = frontier.rootWith(result.root)
          if (range.end - range.start === chunk)
            frontier.appendSubtree(this.chunkLevel, result.root)
          sealed += result.count
          failures.sort(inLogOrder)
          report.merge(failures, result.counts)
        }

        // Positions name distinct entries: as many entries up to the last sealed id as positions
        // that found theirs means none of them lacks one. Otherwise the others are looked for.
        const unsealedResults: ChunkResult[] = []
        const [counted] = await upToLastSealed
        if (Number(counted.n) > sealed) {
          unsealedResults.push(
            await pool.submit({
              id: ranges.length + 1,
              range: null,
              unsealed: 'upTo',
              lastSealedId,
            })
          )
        }
        unsealedResults.push(await after)
        const failures: LogFailure[] = []
        for (const result of unsealedResults) {
          failures.push(...result.failures, ...this.stitch(chains, result))
          report.merge([], result.counts)
          unsealed += result.count
        }
        failures.sort(inLogOrder)
        report.merge(failures, {})

        for (const checkpoint of checkpoints.filter((c) => c.size > treeSize)) {
          report.add({
            reason: 'checkpoint_beyond_log',
            checkpoint_size: checkpoint.size,
            detail: `checkpoint ${checkpoint.size} signs more entries than the log holds (${treeSize}): sealed entries were removed`,
          })
        }
        chains.checkHeads(await heads, (failure) => report.add(failure))

        return {
          lead_id: null,
          valid: report.count === 0,
          entries: sealed + unsealed,
          sealed,
          unsealed,
          leads: chains.size,
          checkpoints: checkpoints.length,
          tree_size: treeSize,
          root,
          broken_at: report.failures[0] ?? null,
          failures: report.failures,
          failure_counts: report.counts,
          duration_ms: Math.round(performance.now() - started),
        }
      } finally {
        await starting.then(
          (pool) => pool.stop(),
          () => {}
        )
      }
    })
  }

  /**
   * The chunks whose positions run straight, as the sealer writes them:
   * every index there, each entry id the index plus one shift (then no
   * entry can be missing from the run or out of its place). Such a chunk's
   * thread reads its entries by id alone; the others read their positions.
   */
  private async straightChunks(snapshot: AuditSnapshot, treeSize: number) {
    const width = 2 ** this.chunkLevel
    // One index range per chunk: memory stays flat however long the log (a GROUP BY may sort it all).
    const rows = await snapshot.query<{ chunk: number; n: string; low: string; high: string }>(
      `SELECT c AS chunk, s.n, s.low, s.high
       FROM generate_series(0, $1::int - 1) AS c
       CROSS JOIN LATERAL (
         SELECT count(*) AS n, min(entry_id - log_index) AS low, max(entry_id - log_index) AS high
         FROM audit.log_positions
         WHERE log_index >= c::bigint * $2 AND log_index < (c::bigint + 1) * $2
       ) s`,
      [Math.ceil(treeSize / width), width]
    )
    const shifts = new Map<number, number>()
    for (const row of rows) {
      const chunk = Number(row.chunk)
      const size = Math.min(width, treeSize - chunk * width)
      if (Number(row.n) === size && row.low === row.high) shifts.set(chunk, Number(row.low))
    }
    return shifts
  }

  /** Carries each lead's chain into a chunk; what breaks is counted into the chunk's counts. */
  private stitch(chains: LeadChains, result: ChunkResult) {
    const failures: LogFailure[] = []
    chains.stitch(result.edges, (failure) => {
      result.counts[failure.reason] = (result.counts[failure.reason] ?? 0) + 1
      failures.push(failure)
    })
    return failures
  }

  private checkCheckpoint(
    checkpoint: Checkpoint,
    root: string,
    report: Report,
    into?: LogFailure[]
  ) {
    const add = (failure: LogFailure) =>
      into ? (into.push(failure), report.countOnly(failure)) : report.add(failure)
    if (root !== checkpoint.root) {
      add({
        reason: 'checkpoint_root_mismatch',
        checkpoint_size: checkpoint.size,
        log_index: checkpoint.size - 1,
        detail: `the first ${checkpoint.size} entries hash to root ${root}; the checkpoint signed ${checkpoint.root}`,
      })
    }
    const signature = verifyCheckpoint(checkpoint, this.signer.publicKey)
    if (!signature.valid) {
      add({
        reason: 'checkpoint_signature_invalid',
        checkpoint_size: checkpoint.size,
        log_index: checkpoint.size - 1,
        detail: `checkpoint ${checkpoint.size}: ${signature.reason}`,
      })
    }
  }
}

/** Where, then what: an entry's link before its own hash, the entries before the checkpoint they end. */
const PRECEDENCE: Record<FailureReason, number> = {
  missing_leaf: 0,
  seq_gap: 1,
  prev_hash_mismatch: 2,
  hash_mismatch: 3,
  checkpoint_root_mismatch: 4,
  checkpoint_signature_invalid: 5,
  checkpoint_beyond_log: 6,
  trail_missing: 7,
  chain_head_mismatch: 8,
  chain_head_missing: 9,
}

/** Entries without a position come after the sealed ones, in id order: the order they will be sealed in. */
function inLogOrder(a: LogFailure, b: LogFailure) {
  const at = (failure: LogFailure) => failure.log_index ?? Number.POSITIVE_INFINITY
  const id = (failure: LogFailure) =>
    failure.log_index === null && failure.entry_id !== undefined ? Number(failure.entry_id) : 0
  return at(a) - at(b) || id(a) - id(b) || PRECEDENCE[a.reason] - PRECEDENCE[b.reason]
}

class Report {
  failures: LogFailure[] = []
  counts: Partial<Record<FailureReason, number>> = {}
  count = 0

  add(failure: LogFailure) {
    this.countOnly(failure)
    if (this.failures.length < MAX_LISTED) this.failures.push(failure)
  }

  countOnly(failure: LogFailure) {
    this.count++
    this.counts[failure.reason] = (this.counts[failure.reason] ?? 0) + 1
  }

  /** A chunk's failures, already in log order, and its counts (which include failures not listed). */
  merge(failures: LogFailure[], counts: Partial<Record<FailureReason, number>>) {
    for (const [reason, count] of Object.entries(counts) as Array<[FailureReason, number]>) {
      this.count += count
      this.counts[reason] = (this.counts[reason] ?? 0) + count
    }
    for (const failure of failures) {
      if (this.failures.length < MAX_LISTED) this.failures.push(failure)
    }
  }
}
