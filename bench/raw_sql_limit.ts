import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import services from '#config/services'
import { type CpuGroups, cpuByProcess, postgresServing } from '#bench/cpu'

const SECONDS = 15

/**
 * Runs one of the pgbench workloads of bench/limit (README there) in a
 * database of its own, 16 clients for 15 s, and answers its transactions
 * (script runs) per second and the CPU per run of pgbench (standing in for
 * the application's client side) and of Postgres serving it. Backends end
 * with pgbench, so their CPU is read while it runs, every 200 ms: the last
 * reading of each counts (a backend's final 200 ms are missed, under 2 %).
 * `rate` throttles pgbench to that many runs a second (its `-R`): CPU per
 * run read at full speed is not comparable with an app's read at a fixed
 * rate, where every lead pays its own wake-ups and commits.
 */
export async function runRawSqlLimit(appRoot: URL, workload: 'limit' | 'path', rate?: number) {
  const folder = new URL('bench/limit/', appRoot).pathname
  // The path is the limit's intake transaction, then the rest of the lead's way (README there).
  const parts = workload === 'limit' ? ['limit'] : ['limit', 'path']
  const script = join(tmpdir(), `leadgate-${workload}-${process.pid}.sql`)
  writeFileSync(script, parts.map((part) => readFileSync(`${folder}${part}.sql`, 'utf8')).join(''))
  const admin = new URL(services.adminDatabaseUrl.href)
  const connection = [
    '-h',
    admin.hostname,
    '-p',
    admin.port || '5432',
    '-U',
    decodeURIComponent(admin.username),
  ]
  execFileSync('dropdb', [...connection, '--if-exists', 'benchlimit'])
  execFileSync('createdb', [...connection, 'benchlimit'])
  for (const part of parts)
    execFileSync('psql', [
      ...connection,
      '-q',
      '-d',
      'benchlimit',
      '-f',
      `${folder}${part}-schema.sql`,
    ])
  let pgbenchPid: number | undefined
  const groups: CpuGroups = {
    pgbench: (pid) => pid === pgbenchPid,
    postgres: postgresServing('benchlimit'),
  }
  const first = cpuByProcess(groups)
  const last = new Map(first)
  const sample = () => cpuByProcess(groups).forEach((reading, pid) => last.set(pid, reading))
  const sampler = setInterval(sample, 200)
  // Note: pgbench's -d is --debug; the database is the positional argument.
  const output = await new Promise<string>((resolve, reject) => {
    const pgbench = spawn(
      'pgbench',
      [
        ...connection,
        '-n',
        '-f',
        script,
        '-c',
        '16',
        '-j',
        '2',
        '-T',
        String(SECONDS),
        ...(rate ? ['-R', String(rate)] : []),
        'benchlimit',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] }
    )
    pgbenchPid = pgbench.pid
    let out = ''
    pgbench.stdout.on('data', (chunk) => (out += chunk))
    pgbench.on('error', reject)
    pgbench.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pgbench exited ${code}`))
    )
  }).finally(() => {
    clearInterval(sampler)
    rmSync(script, { force: true })
  })
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1])
  if (!Number.isFinite(tps)) return null
  const spent = { pgbench: 0, postgres: 0 }
  for (const [pid, { group, ms }] of last)
    spent[group as keyof typeof spent] += ms - (first.get(pid)?.ms ?? 0)
  const runs = tps * SECONDS
  return {
    tps,
    cpuMsPerRun: { pgbench: spent.pgbench / runs, postgres: spent.postgres / runs },
  }
}

/** A run's CPU per script run, rounded for the figures files. */
export function cpuFigures(run: NonNullable<Awaited<ReturnType<typeof runRawSqlLimit>>>) {
  return {
    postgres: Number(run.cpuMsPerRun.postgres.toFixed(3)),
    pgbench: Number(run.cpuMsPerRun.pgbench.toFixed(3)),
  }
}
