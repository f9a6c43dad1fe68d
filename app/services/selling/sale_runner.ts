import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import RoutingService, {
  type PostAnswer,
  type RouteOptions,
  type RoutingOutcome,
  type SaleOffer,
} from '#services/routing/routing_service'
import { loadDestination } from '#services/selling/destination_store'
import { postToDestination } from '#services/selling/destination_post'
import { postAnswer } from '#services/selling/post_answer'

/**
 * A lead's whole sale (docs/selling.md, "The sale"): routing decides in its transaction, and
 * each time it stops at a buyer whose own system must be called, this posts the lead there
 * (after that commit: no transaction waits on a buyer) and hands the answer back, until the
 * lead is sold or unsold. A post that throws is an `error` answer: the sale moves on.
 */
@inject()
export default class SaleRunner {
  constructor(protected routing: RoutingService) {}

  async sell(leadId: string, options: RouteOptions = {}): Promise<RoutingOutcome> {
    let outcome = await this.routing.route(leadId, options)
    while (outcome.outcome === 'offer') {
      const answer = await this.post(outcome.offer)
      outcome = await this.routing.settle(outcome.offer, answer, options)
    }
    return outcome
  }

  async post(offer: SaleOffer): Promise<PostAnswer> {
    const started = performance.now()
    try {
      const destination = offer.destinationId ? await loadDestination(offer.destinationId) : null
      if (!destination || destination.buyerId !== offer.buyerId) {
        return postAnswer('error', 'destination_unavailable', started)
      }
      return await postToDestination(destination, offer)
    } catch (error) {
      logger.error(
        { err: error, lead: offer.leadId, destination: offer.destinationId },
        'sale: a post failed before an answer'
      )
      return postAnswer('error', 'post_failed', started)
    }
  }
}
