import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import IdempotencyService, { type StoredAnswer } from '#services/intake/idempotency_service'
import { waitForSale } from '#services/selling/sale_watcher'

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

/** The longest a publisher may wait for a sale (DESIGN §14). */
const MOST_WAIT_SECONDS = 30

/** `Prefer: wait=N` (RFC 7240), bounded to 1–30 seconds; undefined when not asked for. */
export function preferredWait({ request }: HttpContext) {
  const prefer = request.header('prefer')
  const match = prefer ? /(?:^|[\s,;])wait\s*=\s*"?(\d{1,6})"?(?=$|[\s,;])/i.exec(prefer) : null
  if (!match) return undefined
  const seconds = Number(match[1])
  return seconds < 1 ? undefined : Math.min(seconds, MOST_WAIT_SECONDS)
}

/**
 * Answers a lead, having waited for its sale when the publisher asked (`Prefer: wait`): the
 * answer's `sale` then says sold (with the publisher's own payout) or unsold, or still pending
 * when the wait ran out. Only an accepted lead has a sale to wait for.
 */
export async function sendAnswerAfterSale(
  ctx: HttpContext,
  answer: StoredAnswer & { replayed?: boolean; body: { id: string; status: string } }
) {
  const wait = preferredWait(ctx)
  if (wait === undefined || answer.body.status !== 'accepted') return sendAnswer(ctx, answer)
  const sale = await waitForSale(answer.body.id, wait)
  ctx.response.header('preference-applied', `wait=${wait}`)
  return sendAnswer(ctx, { ...answer, body: { ...answer.body, sale } })
}
