import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import services from '#config/services'
import { CheckpointSigner, verifyCheckpoint, type Checkpoint } from '#services/audit_signing'
import { LeadChains } from '#services/audit_lead_chains'
import AuditSnapshot from '#services/audit_snapshot'
import { toCheckpoint } from '#services/audit_sealer_service'
import type { ChunkResult, FailureReason, LogFailure } from '#services/audit_verify_chunk'
import type { Task, WorkerInput } from '#services/audit_verify_worker'
import { EMPTY_ROOT, Frontier } from '#services/merkle_tree'

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
      const checkpoints = (
        await snapshot.query(
          'SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints ORDER BY size'
        )
      ).map(toCheckpoint)
      const [{ size }] = await snapshot.query<{ size: string }>(
        'SELECT coalesce(max(log_index) + 1, 0) AS size FROM audit.log_positions'
      )
      const treeSize = Number(size)
      const chunk = 2 ** this.chunkLevel
      const tasks: Task[] = []
      for (let start = 0; start < treeSize; start += chunk) {
        tasks.push({ id: tasks.length, range: { start, end: Math.min(start + chunk, treeSize) } })
      }
      tasks.push({ id: tasks.length, range: null })

      const pool = await WorkerPool.start(this.threads, {
        connectionString: services.databaseUrl.href,
        snapshot: exported,
        checkpointSizes: checkpoints.map((checkpoint) => checkpoint.size),
      })
      try {
        // The unsealed entries' scan is dispatched first and stitched last, after every sealed chunk.
        const results = pool.run([tasks[tasks.length - 1], ...tasks.slice(0, -1)])
        // Read while the workers hash, on the snapshot's own connection, which is idle by then.
        const heads = snapshot.binaryTuples(
          'SELECT lead_id, last_seq, last_hash FROM audit.chain_heads',
          3
        )
        heads.catch(() => {})
        const report = new Report()
        const chains = new LeadChains()
        const frontier = new Frontier()
        const bySize = new Map(checkpoints.map((checkpoint) => [checkpoint.size, checkpoint]))
        let root = EMPTY_ROOT
        let sealed = 0
        let unsealed = 0

        if (bySize.has(0)) this.checkCheckpoint(bySize.get(0)!, EMPTY_ROOT, report)
        for (const task of tasks) {
          const result = await results.get(task.id)!
          const failures = [...result.failures]
          chains.stitch(result.edges, (failure) => {
            result.counts[failure.reason] = (result.counts[failure.reason] ?? 0) + 1
            failures.push(failure)
          })
          if (task.range) {
            for (const [at, localRoot] of result.localRoots) {
              this.checkCheckpoint(bySize.get(at)!, frontier.rootWith(localRoot), report, failures)
            }
            root = frontier.rootWith(result.root)
            if (task.range.end - task.range.start === chunk)
              frontier.appendSubtree(this.chunkLevel, result.root)
            sealed += result.count
          } else {
            unsealed += result.count
          }
          failures.sort(inLogOrder)
          report.merge(failures, result.counts)
        }

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
        await pool.stop()
      }
    })
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

function inLogOrder(a: LogFailure, b: LogFailure) {
  const at = (failure: LogFailure) => failure.log_index ?? Number.POSITIVE_INFINITY
  return at(a) - at(b) || PRECEDENCE[a.reason] - PRECEDENCE[b.reason]
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

/**
 * Worker threads that each hold a connection inside the exported snapshot
 * and take chunks as they come free, two at a time so the database fetches
 * the next chunk while the thread hashes the current one.
 */
class WorkerPool {
  private constructor(private workers: Worker[]) {}

  static async start(count: number, input: WorkerInput) {
    const here = fileURLToPath(import.meta.url)
    const extension = extname(here)
    const file = new URL(`./audit_verify_worker${extension}`, import.meta.url)
    // Running from source, a thread needs the TypeScript hook the main thread was started with.
    const execArgv =
      extension === '.ts' ? ['--import', import.meta.resolve('@poppinss/ts-exec')] : []
    const workers = Array.from(
      { length: count },
      () => new Worker(file, { workerData: input, execArgv })
    )
    try {
      await Promise.all(workers.map((worker) => once(worker, (message) => message?.ready === true)))
    } catch (error) {
      await Promise.all(workers.map((worker) => worker.terminate()))
      throw error
    }
    return new WorkerPool(workers)
  }

  /** Sends the tasks out in the given order; answers each task's result by its id. */
  run(tasks: Task[]): Map<number, Promise<ChunkResult>> {
    const settle = new Map<
      number,
      { resolve: (r: ChunkResult) => void; reject: (e: Error) => void }
    >()
    const promises = new Map(
      tasks.map((task) => [
        task.id,
        new Promise<ChunkResult>((resolve, reject) => settle.set(task.id, { resolve, reject })),
      ])
    )
    // Nothing may go unhandled while the caller awaits earlier tasks.
    promises.forEach((promise) => promise.catch(() => {}))
    const queue = [...tasks]
    for (const worker of this.workers) {
      const next = () => {
        const task = queue.shift()
        if (task) worker.postMessage(task)
      }
      worker.on('message', (message) => {
        if (message.id === undefined) return
        const pending = settle.get(message.id)!
        if (message.error) pending.reject(new Error(`verification worker: ${message.error}`))
        else pending.resolve(message.result)
        next()
      })
      worker.on('error', (error) => settle.forEach(({ reject }) => reject(error as Error)))
      next()
      next()
    }
    return promises
  }

  async stop() {
    await Promise.all(
      this.workers.map(async (worker) => {
        worker.postMessage('stop')
        const timer = setTimeout(() => worker.terminate(), 2000)
        await new Promise((resolve) => worker.once('exit', resolve))
        clearTimeout(timer)
      })
    )
  }
}

function once(worker: Worker, accept: (message: any) => boolean) {
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (message) => accept(message) && resolve())
    worker.once('error', (error) => reject(error))
    worker.once('exit', (code) =>
      reject(new Error(`verification worker exited (${code}) before it was ready`))
    )
  })
}
