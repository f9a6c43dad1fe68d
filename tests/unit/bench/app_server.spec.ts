import { once } from 'node:events'
import { test } from '@japa/runner'
import { spawnBenchChild, stillRunning } from '#bench/bench_child'
import { stopBenchServer } from '#bench/app_server'

test.group('Benchmarks: stopping the server', () => {
  test('a server already ended by a signal is stopped at once, however often it is asked', async ({
    assert,
  }) => {
    // What a server that ignored SIGTERM leaves after its SIGKILL: exitCode null, signalCode set.
    const server = spawnBenchChild(['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    await once(server, 'spawn')
    assert.isTrue(stillRunning(server))
    server.kill('SIGKILL')
    await once(server, 'exit')
    assert.isNull(server.exitCode)
    assert.isFalse(stillRunning(server))
    // Waiting for an exit already emitted hung bench:intake for ten minutes.
    await stopBenchServer(server)
    await stopBenchServer(server)
  }).timeout(5000)
})
