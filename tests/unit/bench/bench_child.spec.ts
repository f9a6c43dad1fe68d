import { spawn } from 'node:child_process'
import { test } from '@japa/runner'
import { ORPHAN_GUARD, spawnBenchChild } from '#bench/bench_child'
import { running } from '#tests/support/processes'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts a stand-in benchmark that starts one idle child (with the flags
 * given), prints the child's pid and exits without stopping it.
 */
function abandonChild(flags: string[]): Promise<number> {
  const start = `require('node:child_process').spawn(process.execPath, ${JSON.stringify([...flags, '-e', 'setInterval(() => {}, 1000)'])}, { stdio: 'ignore', env: { ...process.env, BENCH_PARENT_PID: String(process.pid) } })`
  // unref: the stand-in must not wait for its child, as a killed benchmark would not.
  const parent = spawn(
    process.execPath,
    ['-e', `const child = ${start}; child.unref(); console.log(child.pid)`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    }
  )
  let out = ''
  parent.stdout.on('data', (chunk) => (out += chunk))
  return new Promise((resolve) => parent.on('exit', () => resolve(Number(out.trim()))))
}

test.group('Benchmarks / their child processes', () => {
  test('a child the benchmark left behind ends by itself; one without the guard would not', async ({
    assert,
  }) => {
    const guarded = await abandonChild(['--import', ORPHAN_GUARD])
    const unguarded = await abandonChild([])
    try {
      for (let waited = 0; waited < 3000 && running(guarded); waited += 100) await sleep(100)
      assert.isFalse(running(guarded))
      assert.isTrue(running(unguarded))
    } finally {
      for (const pid of [guarded, unguarded]) if (running(pid)) process.kill(pid, 'SIGKILL')
    }
  })

  test('spawnBenchChild starts node with the guard loaded, naming the benchmark as its parent', async ({
    assert,
  }) => {
    const child = spawnBenchChild(
      ['-e', 'console.log(JSON.stringify([process.execArgv, process.env.BENCH_PARENT_PID]))'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      }
    )
    let out = ''
    child.stdout!.on('data', (chunk) => (out += chunk))
    await new Promise((resolve) => child.on('exit', resolve))
    const [flags, parent] = JSON.parse(out)
    assert.deepEqual(flags.slice(0, 2), ['--import', ORPHAN_GUARD])
    assert.equal(parent, String(process.pid))
  })
})
