import { readFileSync, readdirSync } from 'node:fs'
import os from 'node:os'

/**
 * CPU time per process group, read from /proc (Linux), for the benchmarks:
 * on a machine where the server, Postgres, Redis and the load generator
 * share two cores, CPU milliseconds per lead say more than leads per second.
 */
export type CpuGroups = Record<string, (pid: number, command: string) => boolean>

const TICK_MS = 1000 / 100 // USER_HZ is 100 on every Linux we run on

export function cpuSnapshot(groups: CpuGroups): Record<string, number> {
  const totals: Record<string, number> = Object.fromEntries(
    Object.keys(groups).map((name) => [name, 0])
  )
  for (const { group, ms } of cpuByProcess(groups).values()) totals[group] += ms
  return totals
}

/** CPU ms so far of each process in one of the groups, by pid. */
export function cpuByProcess(groups: CpuGroups) {
  const processes = new Map<number, { group: string; ms: number }>()
  if (os.platform() !== 'linux') return processes
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')
      const group = Object.keys(groups).find((name) => groups[name](Number(entry), command))
      // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
      if (group)
        processes.set(Number(entry), {
          group,
          ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
        })
    } catch {
      // The process ended while we read it.
    }
  }
  return processes
}

/** CPU ms each group used between two snapshots. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>) {
  return Object.fromEntries(
    Object.keys(after).map((name) => [name, Math.max(0, after[name] - (before[name] ?? 0))])
  )
}

/**
 * The usual groups: a process of ours with its children, Postgres, Redis.
 * Postgres is its shared processes (WAL writer, checkpointer, …) and the
 * backends of the benchmark's own database: a backend serving another
 * database (another engineer's tests on the same machine) is not ours.
 */
export function benchCpuGroups(ourPid: number, name = 'server'): CpuGroups {
  const database = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/').pathname.slice(1)
  return {
    [name]: (pid) => pid === ourPid || parentOf(pid) === ourPid,
    postgres: postgresServing(database),
    redis: (_pid, command) => command.startsWith('redis-server'),
  }
}

/** Postgres' shared processes and the backends and autovacuum workers of one database (all of them when it is ''). */
export function postgresServing(database: string) {
  return (_pid: number, command: string) => {
    if (!command.startsWith('postgres')) return false
    const backend = BACKEND_TITLE.exec(command) ?? AUTOVACUUM_TITLE.exec(command)
    return !backend || !database || backend[1] === database
  }
}

/** `postgres: 15/main: <user> <database> <host>(<port>) <state>`, a client backend's process title. */
const BACKEND_TITLE = /^postgres: [^:]+: \S+ (\S+) \S+\(\d+\)/
/** `postgres: 15/main: autovacuum worker <database>`: vacuuming one database, not every one. */
const AUTOVACUUM_TITLE = /^postgres: [^:]+: autovacuum worker (\S+)/

function parentOf(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}
