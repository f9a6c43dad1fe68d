import redis from '@adonisjs/redis/services/main'
import logger from '@adonisjs/core/services/logger'

/**
 * Which publishers have a live dashboard open in some process: a sorted set of
 * publisher ids, each scored with the time (ms) its mark lapses. A process marks
 * a publisher when a page subscribes and again on every access check
 * (live_access.ts, every 5 s) while the page stays; a process that dies leaves
 * marks that lapse on their own.
 */
export const WATCHED_PUBLISHERS_KEY = 'live:watched'
const MARK_MS = 30_000
/** How stale this process's view of the other processes' marks may be. */
const REFRESH_MS = 1000

/** null: not known (never read, or Redis away), and then every publisher counts as watched. */
let known: Set<string> | null = null
let readAt = 0
let reading: Promise<void> | null = null

/** Some page of these publishers is open here. Never throws. */
export async function markWatched(publisherIds: string[]) {
  if (publisherIds.length === 0) return
  for (const publisherId of publisherIds) known?.add(publisherId)
  const now = Date.now()
  try {
    // Issued together: auto-pipelining sends both in one write.
    await Promise.all([
      redis.zadd(
        WATCHED_PUBLISHERS_KEY,
        ...publisherIds.flatMap((publisherId) => [now + MARK_MS, publisherId])
      ),
      redis.zremrangebyscore(WATCHED_PUBLISHERS_KEY, '-inf', now),
    ])
  } catch (error) {
    logger.debug({ err: error }, 'live feed: could not mark the watched publishers')
  }
}

/**
 * Those of these publishers someone may be watching; all of them when that
 * cannot be known (Redis away), so a dashboard never misses figures for it.
 * Without it every publisher receiving leads was computed up to once a
 * second in every process that recorded them, watched or not.
 */
export async function watchedAmong(publisherIds: string[]) {
  if (Date.now() - readAt >= REFRESH_MS) await refresh()
  const watched = known
  return watched ? publisherIds.filter((publisherId) => watched.has(publisherId)) : publisherIds
}

function refresh() {
  reading ??= (async () => {
    const now = Date.now()
    try {
      known = new Set(await redis.zrangebyscore(WATCHED_PUBLISHERS_KEY, now, '+inf'))
    } catch (error) {
      known = null
      logger.debug({ err: error }, 'live feed: watched publishers unknown; computing for all')
    } finally {
      readAt = now
      reading = null
    }
  })()
  return reading
}
