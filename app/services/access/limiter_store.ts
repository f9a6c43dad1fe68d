import logger from '@adonisjs/core/services/logger'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import type { LimiterConsumptionOptions } from '@adonisjs/limiter/types'

type Limiter = ReturnType<typeof limiter.use>

/** While Redis is away, say so in the log once a while, not on every request. */
const WARN_EVERY_MS = 30_000
let warnedAt = 0

/**
 * Runs `work` against the limiter in Redis, where every web process shares
 * one count. While Redis is unreachable the same limit is counted in this
 * process's memory instead: limits still hold (per process), and losing
 * Redis locks nobody out. Counting moves back to Redis when it answers.
 */
export async function withLimiter<T>(
  options: LimiterConsumptionOptions,
  work: (counted: Limiter) => Promise<T>
): Promise<T> {
  try {
    return await work(limiter.use('redis', options))
  } catch (error) {
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS || !isRedisUnavailable(error))
      throw error
    if (Date.now() - warnedAt > WARN_EVERY_MS) {
      warnedAt = Date.now()
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'limiter: Redis unavailable; counting in memory until it answers'
      )
    }
    return work(limiter.use('memory', options))
  }
}

/** ioredis failing a command because the server is away (not a refusal, not a bug). */
function isRedisUnavailable(error: unknown) {
  if (!(error instanceof Error)) return false
  const { code } = error as { code?: string }
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code ?? '') ||
    /Connection is closed|Stream isn't writeable|connect ECONNREFUSED/.test(error.message)
  )
}
