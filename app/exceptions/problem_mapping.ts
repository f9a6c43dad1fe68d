import router from '@adonisjs/core/services/router'
import { errors as vineErrors } from '@vinejs/vine'
import type { HttpContext } from '@adonisjs/core/http'
import { errors as bouncerErrors } from '@adonisjs/bouncer'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
const DATABASE_RETRY_AFTER_SECONDS = 5

/**
 * Postgres went away under the request: the backend was terminated or shut
 * down (SQLSTATE 57P01–57P03), the connection broke (class 08, a socket
 * error, pg's "Connection terminated"), or the pool found no connection in
 * time. None of it is the caller's fault, and a retry can succeed.
 */
const LOST_CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
])

export function isDatabaseUnavailable(error: unknown) {
  if (!(error instanceof Error)) return false
  const { code } = error as { code?: string }
  return (
    (code !== undefined && LOST_CONNECTION_CODES.has(code)) ||
    error.name === 'KnexTimeoutError' ||
    /Connection terminated|connection error|Timeout acquiring a connection/i.test(error.message)
  )
}

/**
 * Turns what the framework and its libraries throw into problem details.
 * Returns undefined for anything unexpected, which the handler answers as 500.
 */
export function problemFor(error: unknown, ctx: HttpContext): ApiProblem | undefined {
  if (error instanceof ApiProblem) {
    return error
  }

  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    const errors: FieldError[] = (error.messages as any[]).map((message) => ({
      field: String(message.field),
      code: String(message.rule),
      message: String(message.message),
    }))
    return ApiProblem.unprocessable(errors)
  }

  if (error instanceof bouncerErrors.E_AUTHORIZATION_FAILURE) {
    const response = error.response
    return ApiProblem.forbidden(
      response.translation?.identifier ?? 'forbidden',
      response.message ?? 'Access denied.'
    )
  }

  const { code, status, message } = (error ?? {}) as {
    code?: string
    status?: number
    message?: string
  }

  switch (code) {
    case 'E_ROUTE_NOT_FOUND':
      return routeNotFound(ctx)
    case 'E_REQUEST_ENTITY_TOO_LARGE':
      return new ApiProblem(
        413,
        'payload_too_large',
        'Payload too large',
        'The request body is larger than this API accepts.'
      )
    case 'E_ENCODING_UNSUPPORTED':
      return new ApiProblem(415, 'unsupported_encoding', 'Unsupported media type', message)
    case 'E_REQUEST_ABORTED':
      return ApiProblem.badRequest('request_aborted', 'The request body ended early.')
  }

  // Content-Encoding said gzip, deflate or br and the body was not (zlib's `Z_` codes, brotli's
  // `ERR__ERROR_…` and `ERR_BROTLI_…`).
  if (code?.startsWith('Z_') || code?.startsWith('ERR__ERROR') || code?.startsWith('ERR_BROTLI')) {
    return ApiProblem.badRequest(
      'malformed_body',
      'The body is not encoded as its Content-Encoding header says.'
    )
  }

  if (isDatabaseUnavailable(error)) {
    return ApiProblem.unavailable(
      'database_unavailable',
      'The database connection was lost before the change was confirmed, so it was not stored. ' +
        'Retry in a few seconds; with the same Idempotency-Key a retry never stores a lead twice.',
      DATABASE_RETRY_AFTER_SECONDS
    )
  }

  if (error instanceof SyntaxError && status === 400) {
    return ApiProblem.badRequest('malformed_json', 'The request body is not valid JSON.')
  }
  if (status === 422 && message?.startsWith('Invalid JSON')) {
    return ApiProblem.badRequest('malformed_json', 'The request body must be a JSON object.')
  }
  if (status === 400 || status === 415) {
    return new ApiProblem(
      status,
      status === 400 ? 'bad_request' : 'unsupported_media_type',
      status === 400 ? 'Bad request' : 'Unsupported media type',
      message
    )
  }
  return undefined
}

/**
 * The router knows only 404; a path that exists under another method is a 405
 * with the methods it does take.
 */
function routeNotFound(ctx: HttpContext) {
  const url = ctx.request.url()
  const allowed = METHODS.filter((method) => router.match(url, method, false))
  if (allowed.length === 0) {
    return new ApiProblem(404, 'route_not_found', 'Not found', `There is no route ${url}.`)
  }
  ctx.response.header('allow', allowed.join(', '))
  return new ApiProblem(
    405,
    'method_not_allowed',
    'Method not allowed',
    `${ctx.request.method()} is not allowed here; use ${allowed.join(', ')}.`
  )
}
