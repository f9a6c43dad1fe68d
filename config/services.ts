import env from '#start/env'
import app from '@adonisjs/core/services/app'

/**
 * Where the backing services live. Tests never touch the development
 * database: they use the same server with a database named "<name>_test".
 */
function appDatabaseUrl() {
  const url = new URL(env.get('DATABASE_URL') ?? 'postgres://leadgate_app@127.0.0.1:5432/leadgate')
  if (app.inTest) {
    // TEST_DATABASE_NAME lets parallel test runs on one machine keep apart.
    url.pathname = `/${env.get('TEST_DATABASE_NAME') ?? `${url.pathname.slice(1)}_test`}`
  }
  return url
}

const databaseUrl = appDatabaseUrl()

const adminDatabaseUrl = new URL(
  env.get('DATABASE_ADMIN_URL') ?? `postgres://postgres@${databaseUrl.host}/postgres`
)

const redisUrl = new URL(env.get('REDIS_URL') ?? `redis://127.0.0.1:6379/${app.inTest ? 1 : 0}`)

const databaseName = databaseUrl.pathname.slice(1)

export default {
  databaseUrl,
  adminDatabaseUrl,
  databaseName,
  /**
   * The Redis key prefix every BullMQ queue of this deployment uses unless configured: one per
   * database, so two deployments (or a benchmark beside a development server) on one Redis never
   * take each other's jobs, in braces so every key of a queue hashes to one Redis Cluster slot.
   */
  queuePrefix: `{leadgate-${databaseName}}`,
  databaseRole: decodeURIComponent(databaseUrl.username),
  redisUrl,
}
