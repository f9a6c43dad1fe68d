import { spawnBenchChild } from '#bench/bench_child'

/**
 * Runs a load generator (`bench/*_load.mjs`) as its own process, so it does
 * not share an event loop with what it measures; its figures are the last
 * line it prints, as JSON.
 */
export function runLoadGenerator(appRoot: URL, script: string, plan: Record<string, unknown>) {
  return new Promise<any[]>((resolve, reject) => {
    const child = spawnBenchChild([script, JSON.stringify(plan)], {
      cwd: appRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout!.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!))
        : reject(new Error(`load generator exited ${code}`))
    )
  })
}
