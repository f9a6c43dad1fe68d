import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

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
