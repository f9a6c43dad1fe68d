import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors as limiterErrors } from '@adonisjs/limiter'
import type { LimiterResponse } from '@adonisjs/limiter'
import { apiRateLimit } from '#config/limiter'
import ApiProblem from '#exceptions/api_problem'
import { withLimiter } from '#services/access/limiter_store'

/**
 * Per-credential budget, announced with the IETF RateLimit headers, counted
 * in Redis (in memory while Redis is away: losing Redis costs no publisher
 * its leads, and limits still hold). A route without a credential yet (the
 * OAuth token endpoint, where client secrets are tried) counts per address.
 */
export default class RateLimitMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const credential = ctx.principal?.credentialId
    const key = credential ? `api:${credential}` : `api:address:${ctx.request.ip()}`
    let response: LimiterResponse
    try {
      response = await withLimiter(apiRateLimit, (counted) => counted.consume(key))
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

function setHeaders(ctx: HttpContext, response: LimiterResponse) {
  ctx.response.header('ratelimit-limit', String(response.limit))
  ctx.response.header('ratelimit-remaining', String(response.remaining))
  ctx.response.header('ratelimit-reset', String(response.availableIn))
}
