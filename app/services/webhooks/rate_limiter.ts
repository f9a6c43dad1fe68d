import type { Redis } from 'ioredis'

/**
 * A token bucket per endpoint in Redis, so every worker process shares one
 * budget. Refill and take happen in one script: atomic, and timed by Redis'
 * own clock rather than the workers'. Takes up to ARGV[3] tokens at once and
 * answers {granted, milliseconds until a token will be there}.
 */
const TAKE = `
local key = KEYS[1]
local rate = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
local wait = 0
if granted == 0 then wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', key, math.ceil(burst / rate) + 1000)
return {granted, wait}
`

/** Tokens taken ahead are spent within this long, or given up. */
const RESERVE_MS = 250

export class TokenBucket {
  /**
   * A busy endpoint's worker takes a few tokens per trip to Redis (about
   * 50 ms of its rate) and spends them locally; a slow endpoint's takes one.
   */
  private reserved = new Map<string, { tokens: number; until: number }>()

  /**
   * One trip per endpoint at a time: the jobs in flight that find the
   * reserve empty wait for the same trip and share what it brought. Each
   * taking its own would empty the bucket in one burst, keep only the last
   * trip's tokens, and send the rest of the jobs back to wait (seen in
   * `bench:webhooks`: 500 trips and 400 delayed jobs a second at 2,000/s).
   */
  private trips = new Map<string, Promise<number>>()

  constructor(
    private redis: Redis,
    private prefix: string,
    private burstSeconds: number
  ) {
    redis.defineCommand('leadgateTakeTokens', { numberOfKeys: 1, lua: TAKE })
  }

  /** 0 when the caller may send now, else how long to wait. */
  async take(endpointId: string, perSecond: number): Promise<number> {
    for (;;) {
      const local = this.reserved.get(endpointId)
      if (local && local.tokens > 0 && local.until > Date.now()) {
        local.tokens--
        return 0
      }
      let trip = this.trips.get(endpointId)
      if (!trip) {
        trip = this.fetch(endpointId, perSecond).finally(() => this.trips.delete(endpointId))
        this.trips.set(endpointId, trip)
      }
      const wait = await trip
      if (wait > 0) return wait
    }
  }

  /** Refills the reserve from Redis; answers how long to wait when Redis had no token. */
  private async fetch(endpointId: string, perSecond: number) {
    const burst = Math.max(1, Math.ceil(perSecond * this.burstSeconds))
    const want = Math.max(1, Math.floor(perSecond / 20))
    const [granted, wait] = await (this.redis as any).leadgateTakeTokens(
      `${this.prefix}:webhook-rate:${endpointId}`,
      perSecond,
      burst,
      want
    )
    if (Number(granted) === 0) return Number(wait)
    this.reserved.set(endpointId, { tokens: Number(granted), until: Date.now() + RESERVE_MS })
    return 0
  }
}
