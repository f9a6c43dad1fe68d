import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { apiLoad } from '#config/limiter'
import ApiProblem from '#exceptions/api_problem'
import { isApiRequest } from '#exceptions/handler'

const RETRY_AFTER_SECONDS = 1
let inFlight = 0

/**
 * Past `API_MAX_IN_FLIGHT` API requests at once, the next is answered 503
 * with Retry-After at once, before its body is read: a burst then costs
 * clients a retry instead of seconds of queueing, and the process a bounded
 * amount of memory.
 */
export default class LoadSheddingMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isApiRequest(ctx)) return next()
    if (inFlight >= apiLoad.maxInFlight) {
      throw ApiProblem.unavailable(
        'overloaded',
        `The server is at capacity; retry in ${RETRY_AFTER_SECONDS} s.`,
        RETRY_AFTER_SECONDS
      )
    }
    inFlight++
    try {
      return await next()
    } finally {
      inFlight--
    }
  }
}
