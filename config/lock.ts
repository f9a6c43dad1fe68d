import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/lock'

/**
 * Locks that let one process at a time do a job several may start: the settlement clock and
 * payout runs. In Redis, shared by every web and worker process.
 */
const lockConfig = defineConfig({
  default: env.get('LOCK_STORE') ?? 'redis',
  stores: {
    redis: stores.redis({}),
    memory: stores.memory(),
  },
})

export default lockConfig

declare module '@adonisjs/lock/types' {
  export interface LockStoresList extends InferLockStores<typeof lockConfig> {}
}
