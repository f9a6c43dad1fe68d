import app from '@adonisjs/core/services/app'
import { errors as vineErrors } from '@vinejs/vine'
import { errors as bouncerErrors } from '@adonisjs/bouncer'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import type { StatusPageRange, StatusPageRenderer } from '@adonisjs/core/types/http'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import { problemType } from '#exceptions/bare_problem'
import { problemFor } from '#exceptions/problem_mapping'

export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = !app.inProduction && !app.inTest

  // A mistyped portal URL gets the branded "not found" page in every environment; a fault
  // keeps the development stack trace outside production.
  protected renderStatusPages = true

  protected statusPages = {
    '404': (_, { inertia }) => inertia.render('errors/not_found', {}),
    ...(app.inProduction
      ? { '500..599': (_, { inertia }) => inertia.render('errors/server_error', {}) }
      : {}),
  } as Record<StatusPageRange, StatusPageRenderer>

  protected ignoreCodes = [
    'E_VALIDATION_ERROR',
    'E_ROUTE_NOT_FOUND',
    'E_REQUEST_ENTITY_TOO_LARGE',
    'E_UNAUTHORIZED_ACCESS',
    'E_AUTHORIZATION_FAILURE',
    'E_TOO_MANY_REQUESTS',
  ]

  async handle(error: unknown, ctx: HttpContext) {
    if (!isApiRequest(ctx)) {
      // Another owner's resource named in the path is not there, whatever the method: the 404
      // page, as for a GET. An id typed into a form (a lead to verify) is answered on the form.
      const pathNamesIt = ctx.request.method() === 'GET' || Object.keys(ctx.params ?? {}).length > 0
      if (error instanceof ApiProblem && error.status === 404 && pathNamesIt) {
        // An error handler's return value is not sent (unlike a controller's): send the page.
        return ctx.response.status(404).send(await ctx.inertia.render('errors/not_found', {}))
      }
      // A refusal (a service's problem, a policy's no) on a form goes back with it, as a toast.
      const refusal =
        error instanceof bouncerErrors.E_AUTHORIZATION_FAILURE ? problemFor(error, ctx) : error
      if (refusal instanceof ApiProblem && ctx.session && ctx.request.method() !== 'GET') {
        return backWithProblem(refusal, ctx)
      }
      return super.handle(error, ctx)
    }

    const problem: ApiProblem = problemFor(error, ctx) ?? internalError()
    const body = {
      type: problemType(problem.code),
      title: problem.title,
      status: problem.status,
      code: problem.code,
      ...(problem.detail ? { detail: problem.detail } : {}),
      instance: ctx.request.url(),
      request_id: ctx.request.id(),
      ...problem.extensions,
    }

    ctx.response.status(problem.status)
    if (problem.retryAfter !== undefined) {
      ctx.response.header('retry-after', String(problem.retryAfter))
    }
    ctx.response.header('content-type', 'application/problem+json; charset=utf-8')
    ctx.response.send(JSON.stringify(body))
  }

  async report(error: unknown, ctx: HttpContext) {
    if (error instanceof ApiProblem || error instanceof vineErrors.E_VALIDATION_ERROR) {
      return
    }
    // What a caller caused (a body that is not what its headers say) is answered, not logged as a fault.
    const problem = isApiRequest(ctx) ? problemFor(error, ctx) : undefined
    if (problem && problem.status < 500) return
    return super.report(error, ctx)
  }
}

/**
 * A portal form met the same refusal the API gives (a taken slug, a lead not flagged): the
 * page shows it next to the field it names, and as a toast, and nothing changed.
 */
function backWithProblem(problem: ApiProblem, ctx: HttpContext) {
  const fieldErrors = (problem.extensions.errors as FieldError[] | undefined) ?? []
  const bag: Record<string, string[]> = {}
  for (const { field, message } of fieldErrors) (bag[field] ??= []).push(message)
  if (problem.extensions.field) bag[String(problem.extensions.field)] = [problem.message]
  ctx.session.flash('inputErrorsBag', bag)
  ctx.session.flash('notice', { severity: 'error', summary: problem.detail ?? problem.title })
  return ctx.response.redirect().back()
}

/** The API's doors: `/v1` and the MCP server, which meet the same guards and problem answers. */
export function isApiRequest(ctx: HttpContext) {
  const url = ctx.request.url()
  return url.startsWith('/v1/') || url === '/v1' || url === '/mcp'
}

function internalError() {
  return new ApiProblem(
    500,
    'internal_error',
    'Internal server error',
    'Something went wrong on our side. It has been logged; quote the request_id when you contact support.'
  )
}
