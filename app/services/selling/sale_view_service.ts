import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import LeadService from '#services/leads/lead_service'
import TenancyService from '#services/platform/tenancy_service'
import { saleStatusOf } from '#services/selling/sale_status'
import type { AuctionTranscript } from '#services/routing/sale_types'

type SaleRow = {
  buyer_id: string
  routing_rule_id: string | null
  destination_id: string | null
  price_cents: number
  payout_cents: number
  currency: string
  exclusive: boolean
  buyer_lead_id: string | null
  sold_at: Date
}

type AttemptRow = {
  id: string
  buyer_id: string
  destination_id: string | null
  destination_kind: string
  kind: 'ping' | 'post'
  outcome: string | null
  reason: string | null
  bid_cents: number | null
  bid_id: string | null
  auction_id: string | null
  http_status: number | null
  buyer_lead_id: string | null
  response_excerpt: string | null
  started_at: Date
  duration_ms: number | null
}

/**
 * `GET /v1/leads/{id}/sale` (API.md, "Selling"): each party sees its part. The operator the
 * whole sale, every buyer's attempt and answer; a buyer its own sale and its own attempts (what
 * its system answered is its own); the publisher whether it sold and its own payout, never a
 * buyer or a price. A lead the caller may not see answers 404, as the lead itself does.
 */
@inject()
export default class SaleViewService {
  constructor(
    protected leads: LeadService,
    protected tenancy: TenancyService
  ) {}

  async forLead(principal: Principal, leadId: string) {
    const publisherId = await this.publisherOf(principal, leadId)
    const fact = await db
      .from('lead_facts')
      .where('lead_id', leadId)
      .select('status', 'sale_status', 'payout_cents')
      .firstOrFail()
    const status = saleStatusOf(fact)
    if (principal.kind === 'publisher' || principal.kind === 'label_manager') {
      return { status, payout_cents: status === 'sold' ? (fact.payout_cents ?? 0) : null }
    }
    const ownBuyer = principal.kind === 'buyer' ? principal.buyerId : null
    const salesQuery = db.from('sales').where('lead_id', leadId).orderBy('sold_at')
    if (ownBuyer) salesQuery.where('buyer_id', ownBuyer)
    const sales: SaleRow[] = await salesQuery
    const attempts: AttemptRow[] = await this.tenancy.run(
      { schemaName: TenancyService.schemaNameFor(publisherId) },
      (trx) => {
        const query = trx
          .from('sale_attempts')
          .where('lead_id', leadId)
          .orderBy('started_at')
          .orderBy('id')
        if (ownBuyer) query.where('buyer_id', ownBuyer)
        return query
      }
    )
    const auction = await this.auctionOf(leadId, ownBuyer, attempts)
    return {
      status,
      ...(auction ? { auction } : {}),
      sales: sales.map((sale) => ({
        buyer_id: sale.buyer_id,
        destination_id: sale.destination_id,
        price_cents: sale.price_cents,
        ...(ownBuyer
          ? {}
          : { payout_cents: sale.payout_cents, routing_rule_id: sale.routing_rule_id }),
        currency: sale.currency,
        exclusive: sale.exclusive,
        buyer_lead_id: sale.buyer_lead_id,
        sold_at: new Date(sale.sold_at).toISOString(),
      })),
      attempts: attempts.map((attempt) => ({
        id: attempt.id,
        buyer_id: attempt.buyer_id,
        destination_id: attempt.destination_id,
        destination_kind: attempt.destination_kind,
        kind: attempt.kind,
        outcome: attempt.outcome ?? 'pending',
        reason: attempt.reason,
        bid_cents: attempt.bid_cents,
        bid_id: attempt.bid_id,
        http_status: attempt.http_status,
        buyer_lead_id: attempt.buyer_lead_id,
        response_excerpt: attempt.response_excerpt,
        duration_ms: attempt.duration_ms,
        at: new Date(attempt.started_at).toISOString(),
      })),
    }
  }

  /**
   * Whose lead it is, when the caller may see its sale: whoever may see the lead, and a buyer
   * that bid on it in an auction (it was pinged the partial lead, never the lead itself).
   */
  private async publisherOf(principal: Principal, leadId: string) {
    try {
      return await this.leads.visiblePublisherId(principal, leadId)
    } catch (error) {
      if (principal.kind !== 'buyer' || !principal.buyerId) throw error
      const fact = await db
        .from('lead_facts')
        .where('lead_id', leadId)
        .where('environment', principal.environment)
        .select('publisher_id')
        .first()
      if (!fact) throw error
      const pinged = await this.tenancy.run(
        { schemaName: TenancyService.schemaNameFor(fact.publisher_id) },
        (trx) =>
          trx
            .from('sale_attempts')
            .where('lead_id', leadId)
            .where('buyer_id', principal.buyerId!)
            .where('kind', 'ping')
            .first()
      )
      if (!pinged) throw error
      return fact.publisher_id as string
    }
  }

  /** The lead's latest auction: whole for the operator; a buyer's own bid and whether it won. */
  private async auctionOf(leadId: string, ownBuyer: string | null, attempts: AttemptRow[]) {
    const row = await db
      .from('auctions')
      .where('lead_id', leadId)
      .orderBy('created_at', 'desc')
      .first()
    if (!row) return null
    const transcript = row.transcript as AuctionTranscript
    if (!ownBuyer) return { ...transcript, digest: row.digest }
    const bid = attempts.find((attempt) => attempt.auction_id === row.id && attempt.kind === 'ping')
    if (!bid) return null
    return {
      id: row.id,
      bid_cents: bid.bid_cents,
      bid_id: bid.bid_id,
      won: transcript.winner_buyer_id === ownBuyer,
    }
  }
}
