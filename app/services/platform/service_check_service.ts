import net from 'node:net'
import pg from 'pg'
import services from '#config/services'

/**
 * Says which backing service is missing, where it looked and how to start it,
 * instead of a driver's stack trace.
 */
export class ServiceUnavailable extends Error {}

export default class ServiceCheckService {
  async assertReachable() {
    const problems = [await this.checkPostgres(), await this.checkRedis()].filter(Boolean)
    if (problems.length > 0) {
      throw new ServiceUnavailable(problems.join('\n\n'))
    }
  }

  async checkPostgres(): Promise<string | undefined> {
    const url = services.adminDatabaseUrl
    const client = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.query('SELECT 1')
    } catch (error) {
      return [
        `PostgreSQL is not reachable at ${url.host} as "${url.username}" (${(error as Error).message}).`,
        `  Looked at: DATABASE_ADMIN_URL=${redact(url)} (app: DATABASE_URL=${redact(services.databaseUrl)})`,
        '  Start it:  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
        '         or: docker compose up -d postgres',
        '  Or point DATABASE_URL / DATABASE_ADMIN_URL at a running server.',
      ].join('\n')
    } finally {
      await client.end().catch(() => {})
    }
  }

  async checkRedis(): Promise<string | undefined> {
    const url = services.redisUrl
    const error = await ping(url.hostname, Number(url.port || 6379))
    if (!error) return undefined
    return [
      `Redis is not reachable at ${url.host} (${error}).`,
      `  Looked at: REDIS_URL=${redact(url)}`,
      '  Start it:  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
      '         or: docker compose up -d redis',
      '  Or point REDIS_URL at a running server.',
    ].join('\n')
  }
}

function ping(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 })
    const done = (error?: string) => {
      socket.destroy()
      resolve(error)
    }
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', () => done())
    socket.on('timeout', () => done('timed out'))
    socket.on('error', (err) => done(err.message))
  })
}

function redact(url: URL) {
  const copy = new URL(url.href)
  if (copy.password) copy.password = '***'
  return copy.href
}
