import { BaseTransformer } from '@adonisjs/core/transformers'
import type SaleViewService from '#services/selling/sale_view_service'
import type { AuctionTranscript } from '#services/routing/sale_types'

type SaleView = Awaited<ReturnType<SaleViewService['forLead']>>
type WholeSale = Extract<SaleView, { attempts: unknown }>

/** The whole sale as the operator reads it, and the names of the buyers and destinations it names. */
export type OperatorSale = {
  view: SaleView
  buyers: ReadonlyMap<string, string>
  destinations: ReadonlyMap<string, string>
}

/**
 * A lead's sale on the operator's lead page: GET /v1/leads/{id}/sale as the operator reads it
 * (SaleViewService.forLead), with each buyer and destination named.
 */
export default class SaleViewTransformer extends BaseTransformer<OperatorSale> {
  toObject() {
    const { view, buyers, destinations } = this.resource
    const whole = 'attempts' in view ? (view as WholeSale) : null
    const auction = whole?.auction as (AuctionTranscript & { digest: string }) | undefined
    return {
      status: view.status,
      sales: whole?.sales ?? [],
      attempts: whole?.attempts ?? [],
      auction: auction && 'bids' in auction ? auction : null,
      // A buyer's part of the auction: its own bid and whether it won, never the others'.
      own_bid: ownBid(whole?.auction),
      buyer_names: Object.fromEntries(buyers),
      destination_names: Object.fromEntries(destinations),
    }
  }

  /** The publisher's part: whether its lead sold and what it earned, never buyer or price. */
  toPublisher() {
    const { view } = this.resource
    return {
      status: view.status,
      payout_cents: 'payout_cents' in view ? (view.payout_cents as number | null) : null,
    }
  }
}

function ownBid(auction: unknown): { bid_cents: number | null; won: boolean } | null {
  if (!auction || typeof auction !== 'object' || !('won' in auction)) return null
  const own = auction as { bid_cents: number | null; won: boolean }
  return { bid_cents: own.bid_cents, won: own.won }
}
