import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import logger from '@adonisjs/core/services/logger'
import { redisConnection } from '#config/redis'
import webhooksConfig from '#config/webhooks'
import { HttpSender } from '#services/webhooks/http_sender'
import { TokenBucket } from '#services/webhooks/rate_limiter'
import { Relay } from '#services/webhooks/relay'
import { Sweeper } from '#services/webhooks/sweeper'
import { AddressPolicy, type Resolver } from '#services/webhooks/ssrf_guard'
import WebhookDeliveryJob, { type DeliveryJobData } from '#services/webhooks/delivery_job'

export type RedisTarget = { host: string; port: number; db: number; password?: string }

export type RuntimeOptions = {
  redis?: RedisTarget
  prefix?: string
  concurrency?: number
  /** Private addresses this runtime may dial; defaults to the configured allowlist. */
  allowPrivate?: string[]
  resolver?: Resolver
  relay?: boolean
  sweeper?: boolean
  worker?: boolean
}

/**
 * Everything that moves webhooks, in one process: the relay (Postgres →
 * BullMQ), the sweeper (lost jobs, tasks, health, probes) and the BullMQ
 * workers that sign and send. `node ace queue:work` runs one; tests start
 * their own against a Redis prefix (or server) of their choosing.
 */
export class WebhookRuntime {
  readonly queue: Queue
  readonly sender: HttpSender
  private worker: Worker | null = null
  private relay: Relay | null = null
  private sweeper: Sweeper | null = null
  private limiterRedis: Redis | null = null
  private readonly redis: RedisTarget
  private readonly prefix: string

  constructor(private options: RuntimeOptions = {}) {
    this.redis = options.redis ?? redisConnection
    this.prefix = options.prefix ?? webhooksConfig.queue.prefix
    // The producer fails fast while Redis is away; the relay simply tries again later.
    this.queue = new Queue(webhooksConfig.queue.name, {
      connection: {
        ...this.redis,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        retryStrategy: reconnect,
      },
      prefix: this.prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 1000 } },
    })
    this.queue.on('error', (error) =>
      logger.debug({ err: error }, 'webhook queue connection error')
    )
    this.sender = new HttpSender({
      connectTimeoutMs: webhooksConfig.http.connectTimeoutMs,
      totalTimeoutMs: webhooksConfig.http.totalTimeoutMs,
      excerptBytes: webhooksConfig.http.responseExcerptBytes,
      userAgent: webhooksConfig.http.userAgent,
      policy: new AddressPolicy(options.allowPrivate ?? webhooksConfig.ssrf.allow),
      resolver: options.resolver,
      localAddress: webhooksConfig.http.sourceAddress,
    })
  }

  async start() {
    const wants = { relay: true, sweeper: true, worker: true, ...this.options }
    if (wants.worker) this.startWorker()
    if (wants.sweeper) {
      this.sweeper = new Sweeper(this.queue, this.sender, logger, () => this.relay?.wake())
    }
    if (wants.relay) {
      this.relay = new Relay(this.queue, logger, () => this.sweeper?.runTasksSoon())
      await this.relay.start()
    }
    this.sweeper?.start()
  }

  private startWorker() {
    this.limiterRedis = new Redis({
      ...this.redis,
      maxRetriesPerRequest: 1,
      retryStrategy: reconnect,
    })
    this.limiterRedis.on('error', (error) =>
      logger.debug({ err: error }, 'webhook rate limiter connection error')
    )
    const job = new WebhookDeliveryJob({
      sender: this.sender,
      limiter: new TokenBucket(
        this.limiterRedis,
        this.prefix,
        webhooksConfig.rateLimit.burstSeconds
      ),
      queue: this.queue,
      logger,
    })
    this.worker = new Worker<DeliveryJobData>(
      webhooksConfig.queue.name,
      (work, token) => job.handle(work, token),
      {
        connection: { ...this.redis, maxRetriesPerRequest: null, retryStrategy: reconnect },
        prefix: this.prefix,
        concurrency: this.options.concurrency ?? webhooksConfig.queue.concurrency,
        lockDuration: webhooksConfig.queue.lockDurationMs,
        stalledInterval: webhooksConfig.queue.stalledIntervalMs,
        maxStalledCount: 5,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 1000 },
      }
    )
    this.worker.on('error', (error) =>
      logger.debug({ err: error }, 'webhook worker connection error')
    )
    this.worker.on('failed', (work, error) =>
      logger.warn({ err: error, job: work?.id }, 'webhook delivery job failed')
    )
  }

  /** Finishes the attempts in flight, then lets go of everything. */
  async stop() {
    await this.relay?.stop()
    await this.sweeper?.stop()
    await this.worker?.close()
    await this.queue.close()
    this.limiterRedis?.disconnect()
    this.sender.close()
  }
}

/** Keep trying, at most every two seconds: a worker outlives a Redis restart. */
function reconnect(times: number) {
  return Math.min(times * 100, 2000)
}
