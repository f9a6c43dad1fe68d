import type { PostAnswer, SaleOffer } from '#services/routing/routing_service'
import type { LoadedDestination } from '#services/selling/destination_store'
import { emailLead } from '#services/selling/lead_email'
import { postToCrm } from '#services/selling/crm_post'
import { postAnswer } from '#services/selling/post_answer'
import { postLead } from '#services/selling/buyer_http'
import type { HttpDestinationConfig } from '#services/selling/http_destination'

/** Posts an offered lead by its destination's kind; `webhook` destinations never get here. */
export async function postToDestination(
  destination: LoadedDestination,
  offer: SaleOffer
): Promise<PostAnswer> {
  switch (destination.kind) {
    case 'email':
      return emailLead(destination, offer)
    case 'crm':
      return postToCrm(destination, offer)
    case 'http':
      return postToBuyerSystem(destination, offer)
    default:
      return postAnswer('error', `${destination.kind}_not_supported`, performance.now())
  }
}

/** An `http` destination: the lead posted into the buyer's own system, its answer read by the rules. */
async function postToBuyerSystem(
  destination: LoadedDestination,
  offer: SaleOffer
): Promise<PostAnswer> {
  const result = await postLead(
    {
      id: destination.id,
      http: destination.config.http as HttpDestinationConfig,
      secrets: destination.secrets,
      signingSecret: destination.signingSecret ?? '',
    },
    offer.lead,
    { attemptId: offer.attemptId }
  )
  return {
    outcome: result.outcome,
    reason: result.reason,
    buyerLeadId: result.buyer_lead_id,
    priceCents: result.price_cents,
    httpStatus: result.response?.status ?? null,
    durationMs: result.duration_ms,
    request: result.request,
    responseExcerpt: result.response?.body ?? null,
  }
}
