import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ApiProblem from '#exceptions/api_problem'
import { isApiRequest } from '#exceptions/handler'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * The routes that take files, and the media types each takes: uploads read their multipart body
 * as it streams in; a publisher answers a dispute in JSON, or in multipart with attachments.
 */
const FILE_ROUTES = new Map([
  ['/v1/uploads', ['multipart/form-data']],
  ['/v1/disputes/:id/responses', ['multipart/form-data', 'application/json']],
])

/**
 * Refuses, before the body is parsed and before anyone is authenticated,
 * what no route takes:
 * - a multipart body (files) on any route but those of FILE_ROUTES, which
 *   read their files as they stream in: elsewhere a parsed upload would sit
 *   in the temp folder;
 * - on the API, a body in any media type but JSON (and form encoding on
 *   the OAuth token route, as RFC 6749 requires): 415;
 * - on the API, a query string on a write: a write reads its body alone,
 *   so a policy and a validator can never see two different inputs.
 */
export default class ApiRequestMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.method()
    const fileTypes = method === 'POST' ? FILE_ROUTES.get(ctx.route?.pattern ?? '') : undefined
    const takesFiles = fileTypes !== undefined
    if (hasBody(ctx) && ctx.request.is(['multipart/form-data']) && !takesFiles) {
      throw new ApiProblem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        'This route takes no files; send the body as application/json.'
      )
    }
    if (!isApiRequest(ctx)) return next()

    if (WRITE_METHODS.has(method) && Object.keys(ctx.request.qs()).length > 0) {
      throw ApiProblem.badRequest(
        'query_not_allowed',
        `${method} takes its input from the body only; remove the query string.`
      )
    }
    if (!BODY_METHODS.has(method) || !hasBody(ctx)) return next()

    const accepted =
      fileTypes ??
      (ctx.route?.pattern === '/v1/oauth/token'
        ? ['application/json', 'application/x-www-form-urlencoded']
        : ['application/json', 'application/merge-patch+json'])
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
