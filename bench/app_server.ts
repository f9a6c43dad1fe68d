import { execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { spawnBenchChild, stillRunning } from '#bench/bench_child'

/**
 * The application server as the benchmarks run it: in its own process, in
 * production mode, from the compiled build (`node ace build`) as it is
 * deployed, or from the TypeScript sources for a quick look.
 */
export type BenchServerOptions = {
  appRoot: URL
  port: number
  /** Run build/bin/server.js (after building) rather than bin/server.ts under the loader. */
  build: boolean
  env: Record<string, string>
  /** Extra flags for node, e.g. --cpu-prof. */
  nodeFlags?: string[]
}

/** A benchmark's server, and the folder it runs from (its own copy of the build, or the sources). */
export type BenchServer = ChildProcess & { root: string }

/**
 * Builds, then copies `build/` to a folder of this run's own: benchmarks run side by side (by
 * other engineers too), and `node ace build` empties `build/` first, under any server running
 * from it. The build and the copy hold one lock (flock), so no build sees another's half.
 * Modules still resolve from the project's node_modules, a parent of the copy.
 */
export function buildForBench(appRoot: URL) {
  const root = fileURLToPath(new URL(`tmp/bench/build-${process.pid}/`, appRoot))
  mkdirSync(fileURLToPath(new URL('tmp/bench/', appRoot)), { recursive: true })
  execFileSync(
    'flock',
    [
      fileURLToPath(new URL('tmp/bench/build.lock', appRoot)),
      'sh',
      '-c',
      `"$0" ace build && rm -rf "$1" && cp -r build "$1"`,
      process.execPath,
      root,
    ],
    { cwd: appRoot, stdio: 'ignore' }
  )
  return root
}

/**
 * What every benchmark's server runs with that `npm start` would not: one load generator's
 * address would meet the per-key API limit within a second, and info logs cost CPU per request.
 */
const SERVER_SETTINGS = { LOG_LEVEL: 'warn', API_RATE_LIMIT: '100000000' }

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  // The key and the database are the run's own, not settings.
  const changed = Object.fromEntries(
    Object.entries({ ...SERVER_SETTINGS, ...options.env }).filter(
      ([name]) => name !== 'APP_KEY' && name !== 'DATABASE_URL'
    )
  )
  process.stdout.write(
    `bench server: settings changed from npm start: ${JSON.stringify(changed)}\n`
  )
  const root = options.build ? buildForBench(options.appRoot) : fileURLToPath(options.appRoot)
  const entry = options.build
    ? ['bin/server.js']
    : ['--import', '@poppinss/ts-exec', 'bin/server.ts']
  const server = spawnBenchChild(
    [...startFlags(options.appRoot), ...(options.nodeFlags ?? []), ...entry],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        ...SERVER_SETTINGS,
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    }
  )
  const started = Object.assign(server, { root })
  try {
    await waitFor(`http://127.0.0.1:${options.port}/v1/openapi.json`)
  } catch (error) {
    await stopBenchServer(started)
    throw error
  }
  return started
}

/** The node flags of `npm start` (package.json), so the benchmark runs the server as it is deployed. */
function startFlags(appRoot: URL) {
  const { scripts } = JSON.parse(readFileSync(new URL('package.json', appRoot), 'utf8'))
  return String(scripts.start)
    .split(/\s+/)
    .filter((word) => word.startsWith('--'))
}

/** SIGTERM, then wait (a profiled server writes its profile on the way out); its build copy goes. */
export async function stopBenchServer(server: ChildProcess & { root?: string }) {
  if (stillRunning(server)) {
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => server.kill('SIGKILL'), 30_000)
      server.once('exit', () => {
        clearTimeout(force)
        resolve()
      })
      server.kill('SIGTERM')
    })
  }
  if (server.root?.includes('/tmp/bench/build-'))
    rmSync(server.root, { recursive: true, force: true })
}

async function waitFor(url: string) {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const answer = await fetch(url)
      if (answer.ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`the app did not answer at ${url}`)
}
