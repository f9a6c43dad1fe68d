import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'

export const ORPHAN_GUARD = new URL('./orphan_guard.mjs', import.meta.url).href

/**
 * Starts a node process for a benchmark (the server, a worker, a load
 * generator, a receiver) that ends itself if the benchmark dies first, so
 * no stray process competes with the next run (bench/orphan_guard.mjs).
 * `args` are node's: flags, then the script and its arguments.
 */
export function spawnBenchChild(args: string[], options: SpawnOptions): ChildProcess {
  return spawn(process.execPath, ['--import', ORPHAN_GUARD, ...args], {
    ...options,
    env: { ...(options.env ?? process.env), BENCH_PARENT_PID: String(process.pid) },
  })
}

/**
 * Until the child has ended. A child killed by a signal keeps `exitCode` null (its `signalCode`
 * says how it ended), and waiting for an `exit` already emitted waits for ever.
 */
export function stillRunning(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null
}
