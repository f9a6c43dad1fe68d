import { spawn } from 'node:child_process'
import { once } from 'node:events'
import app from '@adonisjs/core/services/app'
import services from '#config/services'
import { eventually, freePort } from '#tests/support/webhooks'

/**
 * The web server in a process of its own, as `npm start` runs it, against
 * the test database: for what an in-process server cannot show (a signal,
 * a Redis that goes away under it). `log` holds what it printed.
 */
export async function startAppProcess(env: Record<string, string | undefined> = {}) {
  const port = await freePort()
  const environment: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Under NODE_ENV=test the server derives its database name; give it ours, whatever the run chose.
    DATABASE_URL: services.databaseUrl.href,
    TEST_DATABASE_NAME: services.databaseName,
    REDIS_URL: services.redisUrl.href,
    ...env,
  }
  // A variable given as undefined is one the server must not see at all.
  for (const [name, value] of Object.entries(environment))
    if (value === undefined) delete environment[name]
  const server = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: app.appRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const appProcess = {
    server,
    base: `http://127.0.0.1:${port}`,
    log: '',
    exited: once(server, 'exit'),
    stop() {
      if (server.exitCode === null) server.kill('SIGKILL')
    },
  }
  server.stdout!.on('data', (chunk) => (appProcess.log += chunk))
  server.stderr!.on('data', (chunk) => (appProcess.log += chunk))
  await eventually(
    async () => (await fetch(`${appProcess.base}/v1/openapi.json`).catch(() => null))?.ok,
    'the server answering',
    60_000
  )
  return appProcess
}
