import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * API requests one web process serves at once. Past it the server sheds load
 * (503 with Retry-After) instead of queueing, so latency and memory stay
 * bounded in a burst and clients back off. Mutable for the tests.
 */
export const apiLoad = { maxInFlight: env.get('API_MAX_IN_FLIGHT') ?? 256 }

/**
 * Requests per key and window on the API. Counted in Redis so every web
 * process shares one budget per key.
 */
export const apiRateLimit = {
  requests: env.get('API_RATE_LIMIT') ?? 600,
  duration: env.get('API_RATE_WINDOW') ?? '1 minute',
}

const limiterConfig = defineConfig({
  default: 'redis',
  stores: {
    redis: stores.redis({ connectionName: 'main', keyPrefix: 'leadgate:rl' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
