import { Redis } from 'ioredis'
import logger from '@adonisjs/core/services/logger'
import type { defineConfig } from '@adonisjs/transmit'
import { redisConnection } from '#config/redis'

type TransmitConfig = Parameters<typeof defineConfig>[0]
type Transport = ReturnType<NonNullable<TransmitConfig['transport']>['driver']>
/** Transmit's bus hands its own messages through; the payload is whatever it published. */
type Handler = (payload: any) => void

/** While Redis is away: reconnect for as long as it takes, backing off to one try every 2 s. */
const reconnect = (times: number) => Math.min(times * 100, 2000)
const RESUBSCRIBE_MS = 2000

/**
 * Carries the live feed's broadcasts between processes (the worker's upload
 * rows reach the web process's open dashboards) over Redis pub/sub. Transmit's
 * own Redis transport cannot be told what to do when Redis is away; this one
 * never throws at the caller and never holds it: a publish fails at once
 * (transmit's bus keeps it for a retry on reconnect), a subscription made
 * while Redis is down is retried until it holds, and a connection error is a
 * debug line, not an unhandled event. A dashboard then misses a "changed"
 * until Redis is back; intake never notices.
 */
export class LiveTransport implements Transport {
  #id = ''
  #handlers = new Map<string, Handler[]>()
  #publisher: Redis
  #subscriber: Redis
  #closed = false

  constructor(connection: Partial<typeof redisConnection> = redisConnection) {
    const options = {
      ...connection,
      retryStrategy: reconnect,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    }
    this.#publisher = new Redis({ ...options, lazyConnect: true })
    this.#subscriber = new Redis({ ...options, enableOfflineQueue: true })
    for (const client of [this.#publisher, this.#subscriber]) {
      client.on('error', (error) =>
        logger.debug({ err: error }, 'live feed: redis connection error')
      )
    }
    this.#subscriber.on('message', (channel: string, message: string) => {
      let decoded: { busId?: string; payload?: unknown }
      try {
        decoded = JSON.parse(message)
      } catch {
        return
      }
      // Our own broadcasts reached our own subscribers already.
      if (decoded.busId === this.#id) return
      for (const handler of this.#handlers.get(channel) ?? []) handler(decoded.payload)
    })
    this.#publisher.connect().catch(() => {})
  }

  setId(id: string) {
    this.#id = id
    return this
  }

  onReconnect(callback: () => void) {
    this.#publisher.on('ready', callback)
  }

  async publish(channel: string, message: unknown) {
    await this.#publisher.publish(channel, JSON.stringify({ payload: message, busId: this.#id }))
  }

  async subscribe(channel: string, handler: Handler) {
    const handlers = this.#handlers.get(channel) ?? []
    handlers.push(handler)
    this.#handlers.set(channel, handlers)
    this.#listen(channel)
  }

  async unsubscribe(channel: string) {
    this.#handlers.delete(channel)
    await this.#subscriber.unsubscribe(channel).catch(() => {})
  }

  async disconnect() {
    this.#closed = true
    this.#publisher.disconnect()
    this.#subscriber.disconnect()
  }

  /** Subscribes once Redis answers; ioredis re-subscribes by itself after a later reconnection. */
  #listen(channel: string) {
    this.#subscriber.subscribe(channel).catch((error) => {
      if (this.#closed || !this.#handlers.has(channel)) return
      logger.debug({ err: error }, 'live feed: subscription waits for redis')
      setTimeout(() => this.#listen(channel), RESUBSCRIBE_MS).unref()
    })
  }
}
