import type { Redis } from 'ioredis'

/**
 * A token bucket per endpoint in Redis, so every worker process shares one
 * budget. Refill and take happen in one script: atomic, and timed by Redis'
 * own clock rather than the workers'. Answers 0 when a token was taken, or
 * the milliseconds until one will be there.
 */
const TAKE = `
local key = KEYS[1]
local rate = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', key, math.ceil(burst / rate) + 1000)
return wait
`

export class TokenBucket {
  constructor(
    private redis: Redis,
    private prefix: string,
    private burstSeconds: number
  ) {
    redis.defineCommand('leadgateTakeToken', { numberOfKeys: 1, lua: TAKE })
  }

  async take(endpointId: string, perSecond: number): Promise<number> {
    const burst = Math.max(1, Math.ceil(perSecond * this.burstSeconds))
    const wait = await (this.redis as any).leadgateTakeToken(`${this.prefix}:webhook-rate:${endpointId}`, perSecond, burst)
    return Number(wait)
  }
}
