import type { PostAnswer, SaleOffer } from '#services/routing/routing_service'
import type { LoadedDestination } from '#services/selling/destination_store'
import { emailLead } from '#services/selling/lead_email'
import { postToCrm } from '#services/selling/crm_post'
import { postAnswer } from '#services/selling/post_answer'

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
    default:
      return postAnswer('error', `${destination.kind}_not_supported`, performance.now())
  }
}
