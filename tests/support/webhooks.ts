import http from 'node:http'
import net from 'node:net'
import { spawn, type ChildProcess } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import app from '@adonisjs/core/services/app'
import webhooksConfig from '#config/webhooks'
import services from '#config/services'
import { WebhookRuntime, type RuntimeOptions } from '#services/webhooks/runtime'

export type Received = {
  method: string
  /** The path and query, as requested. */
  url: string
  headers: http.IncomingHttpHeaders
  body: string
  json: any
  at: number
  /** The sender's address as the receiver saw it (the egress address). */
  remoteAddress: string | undefined
}

export type Answer = {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** Never answer (until the test closes the receiver). */
  hold?: boolean
  /** Do the work, then drop the connection before answering: the sender sees a failure, the receiver a duplicate later. */
  reset?: boolean
  /** Answer this many milliseconds late (a slow receiver). */
  delayMs?: number
  /** Send a body this many bytes long, written as the client reads it (`body` is ignored). */
  streamBytes?: number
}
type Behaviour = (request: Received, index: number) => Answer

/**
 * A real HTTP receiver on a free port. `behaviour` decides each answer; a
 * `hold` answer never comes (the socket stays open until the test closes it).
 * `received` lists every request in arrival order, `answered` those that got
 * a 2xx.
 */
export class Receiver {
  readonly received: Received[] = []
  readonly answered: Received[] = []
  /** Requests acted on although the sender never heard back (`reset`). */
  readonly processed: Received[] = []
  /** Bytes of `streamBytes` bodies that reached the socket before the client hung up. */
  streamed = 0
  private held = new Set<http.ServerResponse>()
  private server!: http.Server
  url = ''

  constructor(public behaviour: Behaviour = () => ({ status: 204 })) {}

  static async start(behaviour?: Behaviour) {
    const receiver = new Receiver(behaviour)
    receiver.server = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const entry: Received = {
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
          json: safeJson(body),
          at: Date.now(),
          remoteAddress: request.socket.remoteAddress,
        }
        receiver.received.push(entry)
        const answer = receiver.behaviour(entry, receiver.received.length - 1)
        if (answer.hold) {
          receiver.held.add(response)
          return
        }
        if (answer.reset) {
          receiver.processed.push(entry)
          request.socket.destroy()
          return
        }
        const status = answer.status ?? 204
        const send = () => {
          if (status >= 200 && status < 300) receiver.answered.push(entry)
          response.writeHead(status, answer.headers ?? {})
          if (answer.streamBytes) receiver.stream(response, answer.streamBytes)
          else response.end(answer.body ?? '')
        }
        if (answer.delayMs) setTimeout(send, answer.delayMs)
        else send()
      })
    })
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`
    return receiver
  }

  /** Writes `bytes` in 64 KB chunks, as fast as the client takes them, until it hangs up. */
  private stream(response: http.ServerResponse, bytes: number) {
    const chunk = Buffer.alloc(64 * 1024, 'x')
    let left = bytes
    const write = () => {
      while (left > 0 && !response.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, left))
        left -= part.length
        const more = response.write(part, () => (this.streamed += part.length))
        if (!more) return response.once('drain', write)
      }
      if (left <= 0) response.end()
    }
    write()
  }

  get port() {
    return (this.server.address() as AddressInfo).port
  }

  /** Event ids of the 2xx-answered requests, in order. */
  answeredIds() {
    return this.answered.map((entry) => entry.json?.event_id)
  }

  async close() {
    for (const response of this.held) response.socket?.destroy()
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

function safeJson(text: string) {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Polls until `check` returns something truthy, or fails with `what`. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  what: string,
  timeoutMs = 15_000
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value) return value as Exclude<T, false | null | undefined | 0 | ''>
    } catch (error) {
      last = error
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A test clock for the webhook machinery: retries in milliseconds, short
 * leases and sweeps. Returns a function that puts the real values back.
 */
export function compressWebhookClock(
  overrides: (config: typeof webhooksConfig) => void = () => {}
) {
  const saved = structuredClone(webhooksConfig)
  webhooksConfig.retrySchedule = [0, 150, 300, 450]
  webhooksConfig.minDelayAfterThrottleMs = 400
  webhooksConfig.retryAfterCapMs = 2000
  webhooksConfig.http.connectTimeoutMs = 1000
  webhooksConfig.http.totalTimeoutMs = 2000
  webhooksConfig.leaseMs = 4000
  webhooksConfig.relay.pollIntervalMs = 100
  webhooksConfig.sweeper.intervalMs = 200
  webhooksConfig.sweeper.staleAfterMs = 1500
  webhooksConfig.health.disableAfterMs = 24 * 3600_000
  webhooksConfig.health.probeIntervalMs = 300
  webhooksConfig.breaker.cooldownMs = 600
  webhooksConfig.breaker.maxCooldownMs = 2000
  webhooksConfig.queue.lockDurationMs = 2000
  webhooksConfig.queue.stalledIntervalMs = 1000
  overrides(webhooksConfig)
  return () => {
    Object.assign(webhooksConfig, structuredClone(saved))
  }
}

/** The same compressed clock for a worker in a child process. */
export const COMPRESSED_ENV = {
  WEBHOOK_RETRY_SCHEDULE: '0,150,300,450',
  WEBHOOK_MIN_THROTTLE_DELAY: '400',
  WEBHOOK_TOTAL_TIMEOUT: '2000',
  WEBHOOK_CONNECT_TIMEOUT: '1000',
  WEBHOOK_LEASE: '4000',
  WEBHOOK_RELAY_POLL: '100',
  WEBHOOK_SWEEP_INTERVAL: '200',
  WEBHOOK_STALE_AFTER: '1500',
  WEBHOOK_LOCK_DURATION: '2000',
  WEBHOOK_STALLED_INTERVAL: '1000',
}

/** An in-process worker (relay, sweeper, BullMQ worker) for one test. */
export async function startRuntime(options: RuntimeOptions = {}) {
  const runtime = new WebhookRuntime(options)
  await runtime.start()
  return runtime
}

/**
 * `node ace queue:work` as a child process, with the test's database, Redis
 * and prefix. The URLs are passed whole: ace imports every command file, and
 * with it some config, before the app knows it runs under test.
 */
export function spawnWorker(env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['ace', 'queue:work'], {
    cwd: app.appRoot.pathname,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: services.databaseUrl.href,
      REDIS_URL: services.redisUrl.href,
      WEBHOOK_QUEUE_PREFIX: webhooksConfig.queue.prefix,
      ...COMPRESSED_ENV,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
}

/** A throwaway redis-server of the test's own, so a test can stop Redis without touching the shared one. */
export class PrivateRedis {
  private process: ChildProcess | null = null
  constructor(readonly port: number) {}

  static async start() {
    const redis = new PrivateRedis(await freePort())
    await redis.restart()
    return redis
  }

  async restart() {
    this.process = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      {
        stdio: 'ignore',
      }
    )
    let missing: Error | null = null
    this.process.once('error', (error) => (missing = error))
    await eventually(async () => {
      if (missing)
        throw new Error(
          `this test starts its own redis-server and needs the binary on PATH (apt-get install redis-server): ${missing}`
        )
      const client = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      })
      client.on('error', () => {})
      try {
        await client.connect()
        return (await client.ping()) === 'PONG'
      } finally {
        client.disconnect()
      }
    }, `redis-server on port ${this.port}`)
  }

  async kill() {
    const child = this.process
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    this.process = null
  }

  get target() {
    return { host: '127.0.0.1', port: this.port, db: 0 }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
