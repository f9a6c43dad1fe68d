import cluster from 'node:cluster'

/**
 * WEB_CONCURRENCY > 1 forks that many HTTP workers sharing the port, one per
 * core: a Node process uses one core, and the API is CPU-bound long before
 * Postgres is. The primary only supervises.
 */
const workers = Number(process.env.WEB_CONCURRENCY ?? 1)

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork()
  let stopping = false
  cluster.on('exit', (_worker, code) => {
    if (!stopping && code !== 0) cluster.fork()
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
  })
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    })
  }
} else {
  await import('reflect-metadata')
  const { Ignitor, prettyPrintError } = await import('@adonisjs/core')
  const { createHttpServer } = await import('#start/http_server')

  const APP_ROOT = new URL('../', import.meta.url)

  const IMPORTER = (filePath: string) => {
    if (filePath.startsWith('./') || filePath.startsWith('../')) {
      return import(new URL(filePath, APP_ROOT).href)
    }
    return import(filePath)
  }

  new Ignitor(APP_ROOT, { importer: IMPORTER })
    .tap((app) => {
      app.booting(async () => {
        await import('#start/env')
      })
      app.listen('SIGTERM', () => app.terminate())
      app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
    })
    .httpServer()
    .start(createHttpServer)
    .catch((error) => {
      process.exitCode = 1
      prettyPrintError(error)
    })
}
