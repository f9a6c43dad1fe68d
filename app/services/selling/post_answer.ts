import type { PostAnswer } from '#services/routing/routing_service'

/** An answer of a post that is not a buyer's HTTP answer (e-mail, CRM, a failure before sending). */
export function postAnswer(
  outcome: PostAnswer['outcome'],
  reason: string | null,
  started: number,
  more: Partial<PostAnswer> = {}
): PostAnswer {
  return {
    outcome,
    reason,
    buyerLeadId: null,
    priceCents: null,
    httpStatus: null,
    durationMs: Math.round(performance.now() - started),
    request: null,
    responseExcerpt: null,
    ...more,
  }
}
