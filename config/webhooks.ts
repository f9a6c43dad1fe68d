import net from 'node:net'
import app from '@adonisjs/core/services/app'
import string from '@adonisjs/core/helpers/string'
import env from '#start/env'
import services from '#config/services'

/** `"5s"`, `"30m"`, `"2h"` or plain milliseconds. */
function duration(text: string | undefined, fallback: string | number) {
  const value = (text ?? String(fallback)).trim()
  return /^\d+$/.test(value) ? Number(value) : string.milliseconds.parse(value)
}

function list(text: string | undefined, fallback: string[]) {
  if (text === undefined) return fallback
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}

function sourceAddress(text: string | undefined) {
  const address = text?.trim()
  if (!address) return null
  if (!net.isIP(address)) throw new Error(`WEBHOOK_SOURCE_ADDRESS is not an IP address: ${address}`)
  return address
}

/** The Standard Webhooks schedule: the delay before attempt 1, 2, ... 10. */
const STANDARD_SCHEDULE = ['0', '5s', '5m', '30m', '2h', '5h', '10h', '14h', '20h', '24h']

/**
 * Webhook delivery. Every value has an env override so operations can tune
 * it without a deploy, and tests compress the clock-driven ones.
 */
const webhooksConfig = {
  queue: {
    name: 'webhook-deliveries',
    /** Redis key prefix of the BullMQ queue: the deployment's own (config/services.ts). */
    prefix: env.get('WEBHOOK_QUEUE_PREFIX') ?? services.queuePrefix,
    /** Deliveries in flight per worker process. */
    concurrency: env.get('WEBHOOK_CONCURRENCY') ?? 64,
    /** BullMQ lock on an active job; a crashed worker's job is taken over after it lapses. */
    lockDurationMs: duration(env.get('WEBHOOK_LOCK_DURATION'), '30s'),
    stalledIntervalMs: duration(env.get('WEBHOOK_STALLED_INTERVAL'), '15s'),
  },

  /** Delays before each attempt; a delivery is exhausted after the last one fails. */
  retrySchedule: list(env.get('WEBHOOK_RETRY_SCHEDULE'), STANDARD_SCHEDULE).map((item) =>
    duration(item, 0)
  ),
  /** Each non-zero delay is spread by ±20% so failed receivers are not hit in waves. */
  jitter: 0.2,
  /** After a timeout or a 429 the next attempt waits at least this long. */
  minDelayAfterThrottleMs: duration(env.get('WEBHOOK_MIN_THROTTLE_DELAY'), '60s'),
  /** `Retry-After` is honoured up to this long. */
  retryAfterCapMs: duration(env.get('WEBHOOK_RETRY_AFTER_CAP'), '10h'),

  http: {
    connectTimeoutMs: duration(env.get('WEBHOOK_CONNECT_TIMEOUT'), '5s'),
    totalTimeoutMs: duration(env.get('WEBHOOK_TOTAL_TIMEOUT'), '15s'),
    /** Bytes of each response kept with the attempt. */
    responseExcerptBytes: 20 * 1024,
    userAgent: 'Leadgate-Webhooks/1.0',
    /**
     * The local address every webhook and adapter call leaves from, on a host with several
     * (one of the published egress addresses, docs/webhooks.md); unset, the system picks.
     */
    sourceAddress: sourceAddress(env.get('WEBHOOK_SOURCE_ADDRESS')),
  },

  /**
   * A claimed delivery is the worker's for this long; a crashed worker's claim
   * lapses and the delivery is taken over. Longer than the total timeout.
   */
  leaseMs: duration(env.get('WEBHOOK_LEASE'), '45s'),

  relay: {
    /** The relay wakes on every commit (LISTEN/NOTIFY) and also polls. */
    pollIntervalMs: duration(env.get('WEBHOOK_RELAY_POLL'), '1s'),
    batchSize: 500,
  },

  sweeper: {
    intervalMs: duration(env.get('WEBHOOK_SWEEP_INTERVAL'), '10s'),
    /** A delivery enqueued but still not attempted this long after it was due is enqueued again. */
    staleAfterMs: duration(env.get('WEBHOOK_STALE_AFTER'), '2m'),
  },

  /** Per-endpoint token bucket; an endpoint may set its own rate. */
  rateLimit: {
    perSecond: env.get('WEBHOOK_RATE_LIMIT_PER_SECOND') ?? 100,
    burstSeconds: 2,
  },

  health: {
    /** No success for this long disables an endpoint... */
    disableAfterMs: duration(env.get('WEBHOOK_DISABLE_AFTER'), '5 days'),
    /** ...announced with `endpoint.failing` this long before. */
    warnBeforeMs: duration(env.get('WEBHOOK_WARN_BEFORE'), '24h'),
    /** How often a disabled endpoint is probed with a signed `webhook.ping`. */
    probeIntervalMs: duration(env.get('WEBHOOK_PROBE_INTERVAL'), '1h'),
    /**
     * A healthy endpoint's `last_success_at` is written at most this often: at 300 leads/s
     * a write per endpoint a second was more transactions than routing's
     * (docs/benchmarks/routing.md, 2026-11-28). An outage ending or a circuit closing is
     * written at once.
     */
    lastSuccessEveryMs: duration(env.get('WEBHOOK_LAST_SUCCESS_EVERY'), '10s'),
  },

  /** The circuit breaker pauses an endpoint that fails most of its recent requests. */
  breaker: {
    windowMs: duration(env.get('WEBHOOK_BREAKER_WINDOW'), '5m'),
    minRequests: 10,
    failureRatio: 0.5,
    cooldownMs: duration(env.get('WEBHOOK_BREAKER_COOLDOWN'), '1m'),
    maxCooldownMs: duration(env.get('WEBHOOK_BREAKER_MAX_COOLDOWN'), '30m'),
  },

  /** How long the previous secret keeps signing after a rotation. */
  secretOverlapMs: duration(env.get('WEBHOOK_SECRET_OVERLAP'), '24h'),

  ssrf: {
    /**
     * Private, loopback, link-local, CGNAT, ULA and mapped addresses are
     * refused unless `WEBHOOK_ALLOW_PRIVATE` names them (CIDR blocks), in
     * every environment: a loopback allowed by default would let a tenant
     * read the machine's other local services through the delivery log.
     * The tests name the loopback for their receivers (.env.test).
     */
    allow: list(env.get('WEBHOOK_ALLOW_PRIVATE'), []),
    requireHttps: env.get('WEBHOOK_REQUIRE_HTTPS') ?? app.inProduction,
    /** How long the save-time check waits for DNS before accepting the name. */
    resolveTimeoutMs: 2000,
  },
}

export type WebhooksConfig = typeof webhooksConfig

export default webhooksConfig
