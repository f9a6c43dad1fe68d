import { Exception } from '@adonisjs/core/exceptions'

export type FieldError = { field: string; code: string; message: string }

/**
 * An error a caller can cause, answered as RFC 9457 problem details with a
 * stable `code`. Thrown by services; the exception handler renders it.
 */
export default class ApiProblem extends Exception {
  declare code: string
  /** Seconds a client should wait before trying again (sent as `Retry-After`). */
  retryAfter?: number
  constructor(
    status: number,
    code: string,
    readonly title: string,
    readonly detail?: string,
    readonly extensions: Record<string, unknown> = {}
  ) {
    super(detail ?? title, { status, code })
  }

  static badRequest(code: string, detail: string) {
    return new ApiProblem(400, code, 'Bad request', detail)
  }

  static unauthorized(code: string, detail: string) {
    return new ApiProblem(401, code, 'Unauthorized', detail)
  }

  /** `field` names the request field the refusal is about, so a form can show it there. */
  static forbidden(code: string, detail: string, extensions: { field?: string } = {}) {
    return new ApiProblem(403, code, 'Forbidden', detail, extensions)
  }

  /**
   * Unknown and other owners' resources answer the same way, so a caller
   * cannot learn what exists outside its own world.
   */
  static notFound(resource: string) {
    return new ApiProblem(
      404,
      'not_found',
      'Not found',
      `No ${resource} with this id is visible to you.`
    )
  }

  /** `field` names the request field in conflict (a taken slug), so a form can show it there. */
  static conflict(code: string, detail: string, extensions: { field?: string } = {}) {
    return new ApiProblem(409, code, 'Conflict', detail, extensions)
  }

  /** Something the request needs is away for a moment; the caller may retry after `seconds`. */
  static unavailable(code: string, detail: string, seconds: number) {
    const problem = new ApiProblem(503, code, 'Service unavailable', detail)
    problem.retryAfter = seconds
    return problem
  }

  static unprocessable(errors: FieldError[], detail = 'The request has invalid fields.') {
    return new ApiProblem(422, 'validation_failed', 'Unprocessable content', detail, { errors })
  }
}
