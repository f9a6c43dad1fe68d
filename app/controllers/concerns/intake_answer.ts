import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import IdempotencyService, { type StoredAnswer } from '#services/intake/idempotency_service'

const idempotency = new IdempotencyService()

/** Reads and checks the Idempotency-Key header; the digest ties the key to this exact request. */
export function idempotencyOf({ request }: HttpContext) {
  const key = request.header('idempotency-key')
  if (key === undefined) return undefined
  if (!IdempotencyService.validKey(key)) {
    throw ApiProblem.badRequest(
      'invalid_idempotency_key',
      'Idempotency-Key must be 1 to 255 visible ASCII characters.'
    )
  }
  return { key, digest: idempotency.digest(request.method(), request.url(), request.body()) }
}

export function sendAnswer(
  { response }: HttpContext,
  answer: StoredAnswer & { replayed?: boolean }
) {
  if (answer.replayed) response.header('idempotent-replayed', 'true')
  return response.status(answer.status).json(answer.body)
}
