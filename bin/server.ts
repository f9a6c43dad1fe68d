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
    // A worker that exited may still be listed until its channel closes: count the dead, not the listed.
    if (Object.values(cluster.workers ?? {}).every((worker) => !worker || worker.isDead()))
      process.exit(0)
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
      // A cluster worker's channel to the primary keeps it alive once the app has let go of
      // everything else; it is closed last, so the worker exits as a lone server does.
      app.listen('SIGTERM', () =>
        app.terminate().finally(() => cluster.isWorker && process.disconnect?.())
      )
      app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
    })
    .httpServer()
    .start(createHttpServer)
    .catch((error) => {
      process.exitCode = 1
      prettyPrintError(error)
    })
}
