import locks from '@adonisjs/lock/services/main'
import logger from '@adonisjs/core/services/logger'

/** How long a lock outlives a holder that stopped renewing it (killed, out of memory, a deploy). */
const LOCK_LEASE_MS = 15_000

/**
 * Runs `work` if no other process holds the lock `name`, as `runImmediately` does, but on a
 * short lease renewed every third of it while the work goes on. A TTL sized to the longest run
 * (30 minutes for a payout run) kept every later run refused for that long after a process
 * died holding it; a lease frees it within `leaseMs` of the crash, however long runs take.
 */
export async function runUnderLease<T>(
  name: string,
  work: () => Promise<T>,
  leaseMs = LOCK_LEASE_MS
): Promise<[true, T] | [false, null]> {
  const lock = locks.createLock(name, leaseMs)
  if (!(await lock.acquireImmediately())) return [false, null]
  const renewal = setInterval(() => {
    lock
      .extend(leaseMs)
      .catch((error) =>
        logger.warn({ err: error, lock: name }, 'lock lease not renewed; it may lapse mid-run')
      )
  }, leaseMs / 3)
  try {
    return [true, await work()]
  } finally {
    clearInterval(renewal)
    await lock
      .release()
      .catch((error) => logger.warn({ err: error, lock: name }, 'lock not released; it lapses'))
  }
}
