import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import RoutingService, {
  type PingAnswer,
  type PostAnswer,
  type RouteOptions,
  type RoutingOutcome,
  type SaleAuction,
  type SaleOffer,
} from '#services/routing/routing_service'
import { loadDestination } from '#services/selling/destination_store'
import { postToDestination } from '#services/selling/destination_post'
import { postAnswer } from '#services/selling/post_answer'
import { pingLead } from '#services/selling/buyer_http'
import type { HttpDestinationConfig } from '#services/selling/http_destination'
import { partialLead } from '#services/selling/ping_lead'

/**
 * A lead's whole sale (docs/selling.md, "The sale"): routing decides in its transaction, and
 * each time it stops at buyers whose own systems must be called (a post, or an auction's pings),
 * this calls them (after that commit: no transaction waits on a buyer) and hands the answers
 * back, until the lead is sold or unsold. A call that throws is an `error` (or a `no_bid`):
 * the sale moves on.
 */
@inject()
export default class SaleRunner {
  constructor(protected routing: RoutingService) {}

  async sell(leadId: string, options: RouteOptions = {}): Promise<RoutingOutcome> {
    let outcome = await this.routing.route(leadId, options)
    for (;;) {
      if (outcome.outcome === 'offer') {
        outcome = await this.routing.settle(outcome.offer, await this.post(outcome.offer), options)
      } else if (outcome.outcome === 'auction') {
        const pings = await this.ping(outcome.auction)
        outcome = await this.routing.settleAuction(outcome.auction, pings, options)
      } else {
        return outcome
      }
    }
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

  /**
   * Every buyer of the auction at once, with the partial lead only: bids come in until the
   * auction's `tmax` (no ping outlasts it) or until every buyer has answered.
   */
  async ping(auction: SaleAuction): Promise<PingAnswer[]> {
    const lead = partialLead(auction.lead, auction.pingPolicy)
    return Promise.all(
      auction.pings.map(async (ping): Promise<PingAnswer> => {
        const started = performance.now()
        const noBid = (reason: string) => ({
          ...postAnswer('error', reason, started),
          attemptId: ping.attemptId,
          outcome: 'no_bid' as const,
          bidCents: null,
          bidId: null,
          expiresInSeconds: null,
        })
        try {
          const destination = await loadDestination(ping.destinationId)
          const http = destination?.config.http as HttpDestinationConfig | undefined
          if (!destination || destination.buyerId !== ping.buyerId || !http?.ping) {
            return noBid('destination_unavailable')
          }
          const result = await pingLead(
            {
              id: destination.id,
              http,
              secrets: destination.secrets,
              signingSecret: destination.signingSecret ?? '',
            },
            lead,
            { attemptId: ping.attemptId, deadlineMs: auction.tmaxMs }
          )
          return {
            attemptId: ping.attemptId,
            outcome: result.outcome,
            reason: result.reason,
            bidCents: result.bid_cents,
            bidId: result.bid_id,
            expiresInSeconds: result.expires_in_seconds,
            httpStatus: result.response?.status ?? null,
            durationMs: result.duration_ms,
            request: result.request,
            responseExcerpt: result.response?.body ?? null,
          }
        } catch (error) {
          logger.error({ err: error, lead: auction.leadId }, 'sale: a ping failed before an answer')
          return noBid('ping_failed')
        }
      })
    )
  }
}
