import type { PostAnswer, SaleOffer } from '#services/routing/routing_service'
import type { LoadedDestination } from '#services/selling/destination_store'
import { emailLead } from '#services/selling/lead_email'

/** Posts an offered lead by its destination's kind; `webhook` destinations never get here. */
export async function postToDestination(
  destination: LoadedDestination,
  offer: SaleOffer
): Promise<PostAnswer> {
  switch (destination.kind) {
    case 'email':
      return emailLead(destination, offer)
    default:
      return {
        outcome: 'error',
        reason: `${destination.kind}_not_supported`,
        buyerLeadId: null,
        priceCents: null,
        httpStatus: null,
        durationMs: 0,
        request: null,
        responseExcerpt: null,
      }
  }
}
