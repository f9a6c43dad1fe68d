import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

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

export async function startBenchServer(options: BenchServerOptions) {
  if (options.build) {
    execFileSync(process.execPath, ['ace', 'build'], { cwd: options.appRoot, stdio: 'ignore' })
  }
  const entry = options.build
    ? ['bin/server.js']
    : ['--import', '@poppinss/ts-exec', 'bin/server.ts']
  const server = spawn(
    process.execPath,
    [...startFlags(options.appRoot), ...(options.nodeFlags ?? []), ...entry],
    {
      cwd: options.build ? new URL('build/', options.appRoot) : options.appRoot,
      env: {
        ...process.env,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        API_RATE_LIMIT: '100000000',
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    }
  )
  try {
    await waitFor(`http://127.0.0.1:${options.port}/v1/openapi.json`)
  } catch (error) {
    await stopBenchServer(server)
    throw error
  }
  return server
}

/** The node flags of `npm start` (package.json), so the benchmark runs the server as it is deployed. */
function startFlags(appRoot: URL) {
  const { scripts } = JSON.parse(readFileSync(new URL('package.json', appRoot), 'utf8'))
  return String(scripts.start)
    .split(/\s+/)
    .filter((word) => word.startsWith('--'))
}

/** SIGTERM, then wait: a profiled server writes its profile on the way out. */
export function stopBenchServer(server: ChildProcess) {
  if (server.exitCode !== null) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), 30_000)
    server.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    server.kill('SIGTERM')
  })
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
