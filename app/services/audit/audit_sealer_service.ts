import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import auditConfig from '#config/audit'
import { CheckpointSigner, type Checkpoint } from '#services/audit/checkpoint_signing'
import { firstRow } from '#services/sql/first_row'
import { transaction } from '#services/sql/transaction'
import {
  Frontier,
  frontierKeys,
  leafHash,
  type NodeKey,
  type TreeNode,
} from '#services/audit/merkle_tree'

export type SealResult = {
  /** `locked`: another sealer holds the lock; nothing was done. */
  status: 'sealed' | 'idle' | 'locked'
  size_before: number
  size_after: number
  sealed: number
  /** Entries sealed later than the lag bound after their `ts`. */
  lagging: number
  checkpoint: Checkpoint | null
}

export type SealOptions = { maxEntries?: number; batchSize?: number; lagBoundMs?: number }

type Run = {
  scan_from: number
  pending_max_id: number
  pending_snapshot: string | null
  pending_at: Date | null
}
type Candidate = {
  id: string
  hash: string
  lead_id: string
  publisher_id: string
  ts: Date
  lag_ms: string
}

const LOCK = "hashtext('leadgate:audit-sealer')"

/**
 * The single writer of the global log (docs/audit.md, "For the operator"). Elected per run with a
 * transaction-scoped advisory lock, it gives committed entries the next
 * `log_index` in id order (an insert into `audit.log_positions`; entries are
 * never touched), extends the RFC 9162 tree from its stored right edge, and
 * signs a checkpoint, all in one transaction: a checkpoint, its positions and
 * its nodes become visible together or not at all.
 */
export default class AuditSealerService {
  constructor(private given: CheckpointSigner | null = null) {}

  /** Resolved on first use, so a missing key fails what needs it, not every audit route. */
  private get signer() {
    return this.given ?? CheckpointSigner.configured()
  }

  async seal(options: SealOptions = {}): Promise<SealResult> {
    const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY
    const batchSize = options.batchSize ?? auditConfig.seal.batchSize
    const lagBoundMs = options.lagBoundMs ?? auditConfig.seal.lagBoundMs

    return transaction(async (trx): Promise<SealResult> => {
      const lock = await trx.rawQuery(`SELECT pg_try_advisory_xact_lock(${LOCK}) AS ok`)
      if (!lock.rows[0].ok) {
        return {
          status: 'locked',
          size_before: 0,
          size_after: 0,
          sealed: 0,
          lagging: 0,
          checkpoint: null,
        }
      }
      // A SELECT without FROM always answers one row.
      const started = (await firstRow(
        trx,
        `SELECT pg_current_snapshot()::text AS snapshot, clock_timestamp() AS at,
                  (SELECT coalesce(max(id), 0) FROM audit.entries) AS max_id`
      ))!
      const run = await this.lastRun(trx)
      const frontier = await this.restore(trx)
      const sizeBefore = frontier.size
      const pendingFinal = await this.settled(trx, run)

      let after = run.scan_from
      let sealed = 0
      let lagging = 0
      let caughtUp = false
      while (sealed < maxEntries) {
        const limit = Math.min(batchSize, maxEntries - sealed)
        const rows = await this.candidates(trx, after, limit)
        if (rows.length > 0) {
          lagging += await this.append(trx, frontier, rows, lagBoundMs)
          sealed += rows.length
          after = Number(rows[rows.length - 1].id)
        }
        if (rows.length < limit) {
          caughtUp = true
          break
        }
      }

      // Ids up to an earlier run's newest are final once its in-flight transactions ended;
      // having sealed every one of them, later runs need not look below it again.
      const done = pendingFinal && (caughtUp || after >= run.pending_max_id)
      const scanFrom = done ? Math.max(run.scan_from, run.pending_max_id) : run.scan_from
      const nextPending =
        pendingFinal && Number(started.max_id) !== run.pending_max_id
          ? {
              max: Number(started.max_id),
              snapshot: started.snapshot as string,
              at: started.at as Date,
            }
          : {
              max: run.pending_max_id,
              snapshot: run.pending_snapshot ?? (started.snapshot as string),
              at: run.pending_at ?? (started.at as Date),
            }

      const checkpoint = await this.checkpoint(trx, frontier)
      if (sealed > 0 || scanFrom !== run.scan_from || nextPending.max !== run.pending_max_id) {
        await trx.rawQuery(
          `INSERT INTO audit.sealer_runs (size_before, size_after, scan_from, pending_max_id, pending_snapshot, pending_at, started_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [
            sizeBefore,
            frontier.size,
            scanFrom,
            nextPending.max,
            nextPending.snapshot,
            nextPending.at,
            started.at,
          ]
        )
      }
      if (lagging > 0) {
        logger.warn({ lagging, lagBoundMs }, 'audit entries were sealed later than the lag bound')
      }
      return {
        status: sealed > 0 ? 'sealed' : 'idle',
        size_before: sizeBefore,
        size_after: frontier.size,
        sealed,
        lagging,
        checkpoint,
      }
    })
  }

  /** Seals until nothing is waiting (a one-off run, a test, the benchmark). */
  async sealAll(options: Omit<SealOptions, 'maxEntries'> = {}) {
    const total = { sealed: 0, lagging: 0, runs: 0 }
    let result: SealResult
    do {
      result = await this.seal({ ...options, maxEntries: 200_000 })
      total.sealed += result.sealed
      total.lagging += result.lagging
      total.runs++
    } while (result.status === 'sealed' && result.sealed === 200_000)
    return { ...result, ...total }
  }

  /** Entries written since the last sealed one, roughly: what the worker polls. */
  async backlog() {
    const result = await db.rawQuery(
      `SELECT (SELECT coalesce(max(id), 0) FROM audit.entries)
            - (SELECT coalesce(max(entry_id), 0) FROM audit.log_positions) AS backlog`
    )
    return Math.max(0, Number(result.rows[0].backlog))
  }

  private async lastRun(trx: TransactionClientContract): Promise<Run> {
    const row = await firstRow(
      trx,
      'SELECT scan_from, pending_max_id, pending_snapshot, pending_at FROM audit.sealer_runs ORDER BY id DESC LIMIT 1'
    )
    if (!row) return { scan_from: 0, pending_max_id: 0, pending_snapshot: null, pending_at: null }
    return {
      scan_from: Number(row.scan_from),
      pending_max_id: Number(row.pending_max_id),
      pending_snapshot: row.pending_snapshot,
      pending_at: row.pending_at,
    }
  }

  /**
   * True when the ids up to the pending maximum can no longer change: no
   * transaction in flight at the pending snapshot still is, and the snapshot
   * is older than `settleMs`, for a transaction that drew its id an instant
   * before it had a transaction id and so is not in the snapshot's list.
   */
  private async settled(trx: TransactionClientContract, run: Run) {
    if (!run.pending_snapshot) return true
    const result = await trx.rawQuery(
      `SELECT coalesce(bool_and(pg_xact_status(xid) IS DISTINCT FROM 'in progress'), true)
              AND coalesce(?::timestamptz <= clock_timestamp() - ? * interval '1 millisecond', true) AS done
       FROM pg_snapshot_xip(?::pg_snapshot) AS xid`,
      // Lucid's binding type leaves out null, which binds as SQL NULL (a run from before 0003).
      [run.pending_at as any, auditConfig.seal.settleMs, run.pending_snapshot]
    )
    return result.rows[0].done as boolean
  }

  /**
   * Committed entries without a position, oldest id first. Everything up to
   * `after` was settled by an earlier run or this one, so the scan starts there.
   */
  private async candidates(
    trx: TransactionClientContract,
    after: number,
    limit: number
  ): Promise<Candidate[]> {
    const result = await trx.rawQuery(
      `SELECT e.id, e.hash, e.lead_id, e.publisher_id, e.ts,
              floor(extract(epoch FROM clock_timestamp() - e.ts) * 1000)::bigint AS lag_ms
       FROM audit.entries e
       WHERE e.id > ? AND NOT EXISTS (SELECT 1 FROM audit.log_positions p WHERE p.entry_id = e.id)
       ORDER BY e.id
       LIMIT ?`,
      [after, limit]
    )
    return result.rows
  }

  private async append(
    trx: TransactionClientContract,
    frontier: Frontier,
    rows: Candidate[],
    lagBoundMs: number
  ) {
    const indexes: number[] = []
    const nodes: TreeNode[] = []
    for (const row of rows) {
      indexes.push(frontier.size)
      frontier.append(leafHash(row.hash), nodes)
    }
    await trx.rawQuery(
      'INSERT INTO audit.log_positions (log_index, entry_id) SELECT * FROM unnest(?::bigint[], ?::bigint[])',
      [pgArray(indexes), pgArray(rows.map((row) => row.id))]
    )
    if (nodes.length > 0) {
      await trx.rawQuery(
        `INSERT INTO audit.merkle_nodes (level, index, hash)
         SELECT level, index, decode(hash, 'hex') FROM unnest(?::smallint[], ?::bigint[], ?::text[]) AS n(level, index, hash)`,
        [
          pgArray(nodes.map((n) => n.level)),
          pgArray(nodes.map((n) => n.index)),
          pgArray(nodes.map((n) => n.hash)),
        ]
      )
    }
    const late = rows.flatMap((row, i) =>
      Number(row.lag_ms) > lagBoundMs ? [{ row, logIndex: indexes[i] }] : []
    )
    if (late.length > 0) {
      await trx.rawQuery(
        `INSERT INTO audit.sealing_lags (entry_id, log_index, lead_id, publisher_id, ts, sealed_at, lag_ms, bound_ms)
         SELECT e.id, l.log_index, e.lead_id, e.publisher_id, e.ts, clock_timestamp(), l.lag_ms, ?
         FROM unnest(?::bigint[], ?::bigint[], ?::bigint[]) AS l(entry_id, log_index, lag_ms)
         JOIN audit.entries e ON e.id = l.entry_id`,
        [
          lagBoundMs,
          pgArray(late.map((l) => l.row.id)),
          pgArray(late.map((l) => l.logIndex)),
          pgArray(late.map((l) => l.row.lag_ms)),
        ]
      )
    }
    return late.length
  }

  /**
   * The right edge of the tree as sealed so far, checked against the latest
   * checkpoint: a log must never sign a tree inconsistent with one it signed,
   * so a damaged tree stops the sealer instead of being extended.
   */
  private async restore(trx: TransactionClientContract) {
    const top = await firstRow<{ size: string }>(
      trx,
      'SELECT coalesce(max(log_index) + 1, 0) AS size FROM audit.log_positions'
    )
    const size = Number(top!.size)
    const nodes = await loadNodes(trx, frontierKeys(size))
    const frontier = new Frontier(
      size,
      frontierKeys(size).map((key) => ({ ...key, hash: nodes.get(key)! }))
    )
    const latest = await firstRow(
      trx,
      'SELECT size, root FROM audit.checkpoints ORDER BY size DESC LIMIT 1'
    )
    if (latest && (Number(latest.size) !== size || latest.root !== frontier.root())) {
      throw new Error(
        `The sealed tree (size ${size}, root ${frontier.root()}) does not match the latest checkpoint ` +
          `(size ${latest.size}, root ${latest.root}): refusing to extend it. Run audit:verify.`
      )
    }
    return frontier
  }

  /** Signs the tree when it grew (or was never signed); returns the checkpoint for its size. */
  private async checkpoint(trx: TransactionClientContract, frontier: Frontier) {
    const existing = await firstRow(
      trx,
      'SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints WHERE size = ?',
      [frontier.size]
    )
    if (existing) return toCheckpoint(existing)
    const checkpoint = this.signer.sign(frontier.size, frontier.root())
    await trx.rawQuery(
      'INSERT INTO audit.checkpoints (size, root, origin, key_id, signature, note) VALUES (?, ?, ?, ?, ?, ?)',
      [
        checkpoint.size,
        checkpoint.root,
        checkpoint.origin,
        checkpoint.key_id,
        checkpoint.signature,
        checkpoint.note,
      ]
    )
    return checkpoint
  }
}

/** Node hashes by key: leaves from their entries, inner nodes from `audit.merkle_nodes`. */
export async function loadNodes(
  client: Pick<QueryClientContract, 'rawQuery'>,
  keys: NodeKey[]
): Promise<{ get(key: NodeKey): string | undefined }> {
  const found = new Map<string, string>()
  const leaves = keys.filter((key) => key.level === 0).map((key) => key.index)
  const inner = keys.filter((key) => key.level > 0)
  if (leaves.length > 0) {
    const rows = await client.rawQuery(
      `SELECT p.log_index, e.hash FROM audit.log_positions p JOIN audit.entries e ON e.id = p.entry_id
       WHERE p.log_index = ANY(?::bigint[])`,
      [pgArray(leaves)]
    )
    for (const row of rows.rows) found.set(`0:${row.log_index}`, leafHash(row.hash))
  }
  if (inner.length > 0) {
    const rows = await client.rawQuery(
      `SELECT n.level, n.index, encode(n.hash, 'hex') AS hash FROM audit.merkle_nodes n
       JOIN unnest(?::smallint[], ?::bigint[]) AS k(level, index) ON k.level = n.level AND k.index = n.index`,
      [pgArray(inner.map((key) => key.level)), pgArray(inner.map((key) => key.index))]
    )
    for (const row of rows.rows) found.set(`${row.level}:${row.index}`, row.hash)
  }
  const missing = keys.find((key) => !found.has(`${key.level}:${key.index}`))
  if (missing) {
    throw new Error(`The audit tree has no node at level ${missing.level}, index ${missing.index}`)
  }
  return { get: (key) => found.get(`${key.level}:${key.index}`) }
}

export function toCheckpoint(row: Record<string, any>): Checkpoint {
  return {
    origin: row.origin,
    size: Number(row.size),
    root: row.root,
    key_id: row.key_id,
    signature: row.signature,
    note: row.note,
  }
}

/** A Postgres array literal of numbers or hex strings, bound as one text parameter. */
function pgArray(values: Array<string | number>) {
  return `{${values.join(',')}}`
}
