import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import logger from '@adonisjs/core/services/logger'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import type { LimiterResponse } from '@adonisjs/limiter'
import { apiRateLimit } from '#config/limiter'
import ApiProblem from '#exceptions/api_problem'

/** While Redis is away, say so in the log once a while, not on every request. */
const WARN_EVERY_MS = 30_000
let warnedAt = 0

/**
 * Per-credential budget in Redis, announced with the IETF RateLimit headers.
 * While Redis is unreachable the same budget is counted in this process's
 * memory: limits still hold (per process), and losing Redis costs no
 * publisher its leads. Counting moves back to Redis when it answers again.
 */
export default class RateLimitMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const key = `api:${ctx.principal.credentialId}`
    let response: LimiterResponse
    try {
      response = await consume(key)
    } catch (error) {
      if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
        setHeaders(ctx, error.response)
        ctx.response.header('retry-after', String(error.response.availableIn))
        throw new ApiProblem(
          429,
          'rate_limited',
          'Too many requests',
          `Rate limit of ${apiRateLimit.requests} requests per ${apiRateLimit.duration} reached; retry in ${error.response.availableIn} s.`
        )
      }
      throw error
    }
    setHeaders(ctx, response)
    return next()
  }
}

async function consume(key: string) {
  try {
    return await limiter.use('redis', apiRateLimit).consume(key)
  } catch (error) {
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) throw error
    if (Date.now() - warnedAt > WARN_EVERY_MS) {
      warnedAt = Date.now()
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'rate limiter: Redis unavailable; counting in memory until it answers'
      )
    }
    return limiter.use('memory', apiRateLimit).consume(key)
  }
}

function setHeaders(ctx: HttpContext, response: LimiterResponse) {
  ctx.response.header('ratelimit-limit', String(response.limit))
  ctx.response.header('ratelimit-remaining', String(response.remaining))
  ctx.response.header('ratelimit-reset', String(response.availableIn))
}
