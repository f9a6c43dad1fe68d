import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import { isApiRequest } from '#exceptions/handler'

/* eslint-disable-next-line no-control-regex */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
const MAX_DEPTH = 8

/**
 * Refuses null bytes, control characters, lone UTF-16 surrogates and absurd
 * nesting anywhere in the body or the query string before a validator or the
 * database sees them: Postgres cannot store U+0000, a lone surrogate (`"\ud800"`)
 * would be stored as U+FFFD, silently not what was sent, and no field of
 * ours has a use for the rest.
 */
export default class InputGuardMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isApiRequest(ctx)) {
      return next()
    }
    // Every JSON body of ours is an object; the parser would read an array as {}.
    if (ctx.request.is(['json']) && ctx.request.raw()?.trimStart().startsWith('[')) {
      throw ApiProblem.badRequest('malformed_json', 'The request body must be a JSON object.')
    }
    const errors: FieldError[] = []
    inspect(ctx.request.body(), '', 0, errors)
    inspect(ctx.request.qs(), 'query', 0, errors)
    if (errors.length > 0) {
      throw ApiProblem.unprocessable(errors.slice(0, 20))
    }
    return next()
  }
}

function inspect(value: unknown, path: string, depth: number, errors: FieldError[]) {
  if (typeof value === 'string') {
    const problem = textProblem(value)
    if (problem) errors.push({ field: path, ...problem })
    return
  }
  if (value === null || typeof value !== 'object') {
    return
  }
  if (depth > MAX_DEPTH) {
    errors.push({
      field: path,
      code: 'too_deep',
      message: `Nesting deeper than ${MAX_DEPTH} levels is not allowed.`,
    })
    return
  }
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key
    const problem = textProblem(key)
    if (problem) {
      errors.push({ field: childPath, ...problem })
      continue
    }
    inspect(child, childPath, depth + 1, errors)
  }
}

function textProblem(text: string) {
  if (CONTROL_CHARACTERS.test(text)) {
    return {
      code: 'control_characters',
      message: 'Control characters and null bytes are not allowed.',
    }
  }
  if (!text.isWellFormed()) {
    return {
      code: 'malformed_unicode',
      message: 'The text holds a lone UTF-16 surrogate; send well-formed Unicode.',
    }
  }
  return null
}
