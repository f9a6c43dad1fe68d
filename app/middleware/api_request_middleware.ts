import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ApiProblem from '#exceptions/api_problem'
import { isApiRequest } from '#exceptions/handler'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/**
 * The API speaks JSON only (and form encoding on the OAuth token route, as
 * RFC 6749 requires). A body in any other media type is a 415 before parsing.
 */
export default class ApiRequestMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isApiRequest(ctx) || !BODY_METHODS.has(ctx.request.method()) || !hasBody(ctx)) {
      return next()
    }

    const accepted =
      ctx.route?.pattern === '/v1/oauth/token'
        ? ['application/json', 'application/x-www-form-urlencoded']
        : ['application/json', 'application/merge-patch+json']
    if (!ctx.request.is(accepted)) {
      throw new ApiProblem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        `Send the body as ${accepted.join(' or ')}.`
      )
    }
    return next()
  }
}

function hasBody(ctx: HttpContext) {
  const length = ctx.request.header('content-length')
  return (
    (length !== undefined && length !== '0') ||
    ctx.request.header('transfer-encoding') !== undefined
  )
}
