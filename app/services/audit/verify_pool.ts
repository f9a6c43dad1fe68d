import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ChunkResult } from '#services/audit/verify_chunk'
import type { Task, WorkerInput } from '#services/audit/verify_worker'

type Settle = { resolve: (result: ChunkResult) => void; reject: (error: Error) => void }
type Thread = { worker: Worker; inFlight: number }

/** Tasks a thread holds at once: the database fetches the next chunk while the thread hashes one. */
const IN_FLIGHT = 2

/**
 * The threads of whole-log verification (verify_worker), each with a
 * connection inside the exported snapshot, taking tasks in the order they
 * are submitted as they come free. Tasks may be added while others run.
 */
export default class AuditVerifyPool {
  #queue: Array<{ task: Task; settle: Settle }> = []
  #pending = new Map<number, Settle>()

  private constructor(private threads: Thread[]) {
    for (const thread of threads) {
      thread.worker.on('message', (message) => {
        if (message.id === undefined) return
        const settle = this.#pending.get(message.id)!
        this.#pending.delete(message.id)
        thread.inFlight--
        if (message.error) settle.reject(new Error(`verification worker: ${message.error}`))
        else settle.resolve(message.result)
        this.#dispatch()
      })
      thread.worker.on('error', (error) => this.#failAll(error as Error))
    }
  }

  static async start(count: number, input: WorkerInput) {
    const here = fileURLToPath(import.meta.url)
    const extension = extname(here)
    const file = new URL(`./verify_worker${extension}`, import.meta.url)
    // Running from source, a thread needs the TypeScript hook the main thread was started with.
    const execArgv =
      extension === '.ts' ? ['--import', import.meta.resolve('@poppinss/ts-exec')] : []
    const workers = Array.from(
      { length: count },
      () => new Worker(file, { workerData: input, execArgv })
    )
    try {
      await Promise.all(workers.map((worker) => ready(worker)))
    } catch (error) {
      await Promise.all(workers.map((worker) => worker.terminate()))
      throw error
    }
    return new AuditVerifyPool(workers.map((worker) => ({ worker, inFlight: 0 })))
  }

  /** The task's result, once a thread has checked it. */
  submit(task: Task) {
    const result = new Promise<ChunkResult>((resolve, reject) => {
      this.#queue.push({ task, settle: { resolve, reject } })
    })
    // Nothing may go unhandled while the caller awaits earlier tasks.
    result.catch(() => {})
    this.#dispatch()
    return result
  }

  async stop() {
    await Promise.all(
      this.threads.map(async ({ worker }) => {
        worker.postMessage('stop')
        const timer = setTimeout(() => worker.terminate(), 2000)
        await new Promise((resolve) => worker.once('exit', resolve))
        clearTimeout(timer)
      })
    )
  }

  /** One task at a time to the least busy thread, so the first results come from both. */
  #dispatch() {
    while (this.#queue.length > 0) {
      const thread = this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a))
      if (thread.inFlight >= IN_FLIGHT) return
      const { task, settle } = this.#queue.shift()!
      this.#pending.set(task.id, settle)
      thread.inFlight++
      thread.worker.postMessage(task)
    }
  }

  #failAll(error: Error) {
    for (const { reject } of this.#pending.values()) reject(error)
    for (const { settle } of this.#queue) settle.reject(error)
    this.#pending.clear()
    this.#queue = []
  }
}

function ready(worker: Worker) {
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (message) => message?.ready === true && resolve())
    worker.once('error', (error) => reject(error))
    worker.once('exit', (code) =>
      reject(new Error(`verification worker exited (${code}) before it was ready`))
    )
  })
}
