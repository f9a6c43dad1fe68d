import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'
import services from '#config/services'

const url = services.redisUrl

export const redisConnection = {
  host: url.hostname,
  port: Number(url.port || 6379),
  password: url.password ? decodeURIComponent(url.password) : undefined,
  db: Number(url.pathname.slice(1) || 0),
}

const redisConfig = defineConfig({
  connection: 'main',
  connections: {
    main: {
      ...redisConnection,
      keyPrefix: '',
      // Commands issued during one turn of the event loop (every request's rate-limit count, say) go out as one write.
      enableAutoPipelining: true,
      // Reconnect for as long as it takes, backing off to one try every 2 s.
      retryStrategy(times) {
        return Math.min(times * 100, 2000)
      },
      // While Redis is away a command fails after one reconnection try instead of holding its
      // request: the rate limiter then counts in memory (app/middleware/rate_limit_middleware.ts).
      maxRetriesPerRequest: 1,
    },
  },
})

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
