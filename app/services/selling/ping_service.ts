import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import Label from '#models/label'
import type Publisher from '#models/publisher'
import type { Environment } from '#auth/principal'
import RoutingRuleBook from '#services/routing/rule_book'
import { rankCandidates, screen } from '#services/routing/selection'
import { byPrice, clearingPrice, pricedCandidates } from '#services/routing/sale_walk'
import { saleSettings } from '#services/routing/sale_settings'
import { payoutOf } from '#services/routing/sale_offers'
import type { SaleAuction, SaleLead } from '#services/routing/sale_types'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'
import SaleRunner from '#services/selling/sale_runner'
import { FundsLedger } from '#services/routing/funds'
import { selectTogether } from '#services/sql/insert_together'
import { type PingFields, pingDigest } from '#services/selling/ping_fields'
import { pingIdOf } from '#services/selling/ping_token'

/** How long a publisher may take to post the lead of an offer (a buyer may hold its bid less). */
export const PING_TTL_MS = 120_000

/**
 * `POST /v1/pings` (DESIGN §14, "Inbound ping-post"): a real auction on the publisher's partial
 * lead. The ping-post buyers its rules would sell to are pinged at once, their bids meet the
 * fixed prices, and the best one is the offer: the publisher's payout of it, never the buyer or
 * the price. The ping keeps the bids (ids and cents) and a digest of its fields, never the
 * fields; posting the lead with its id sells it at that payout (ping_claims.ts).
 */
@inject()
export default class PingService {
  constructor(
    protected book: RoutingRuleBook,
    protected runner: SaleRunner
  ) {}

  async ping(publisher: Publisher, environment: Environment, fields: PingFields) {
    const now = new Date()
    const label = publisher.labelId ? await Label.find(publisher.labelId) : null
    const settings = saleSettings(label?.sale)
    const input: LeadInput = {
      publisher: publisher.slug,
      contact: { ...fields.contact },
      provenance: fields.provenance ?? {},
      consent: {},
      attributes: fields.attributes,
    }
    const book = await this.book.current()
    const rules = book[environment]
    const { eligible } = screen(
      rules,
      {
        publisherId: publisher.id,
        labelId: publisher.labelId,
        input,
        normalised: normaliseLead(input, publisher.country),
      },
      now
    )
    // A buyer that could not pay is neither pinged nor counted in the offer (DESIGN §16).
    const [accounts] = await selectTogether(db.connection(), [
      FundsLedger.query([...new Set(eligible.map((rule) => rule.buyerId))]),
    ])
    const funds = FundsLedger.of(accounts)
    const candidates = rankCandidates(eligible, Math.random).filter((rule) =>
      funds.canPay(
        rule.buyerId,
        rule.currency,
        rule.mode === 'ping_post' ? Math.max(rule.reserveCents ?? 0, 1) : rule.priceCents
      )
    )
    const id = uuidv7()
    const auction: SaleAuction = {
      auctionId: id,
      leadId: id,
      environment,
      tmaxMs: settings.tmaxMs,
      pingPolicy: settings.pingPolicy,
      pings: candidates
        .filter((rule) => rule.mode === 'ping_post' && rule.destinationId)
        .map((rule) => ({
          attemptId: uuidv7(),
          ruleId: rule.id,
          buyerId: rule.buyerId,
          destinationId: rule.destinationId!,
        })),
      at: now,
      lead: partialSaleLead(id, fields, label?.slug ?? null, publisher.country),
    }
    const answers = auction.pings.length > 0 ? await this.runner.ping(auction) : []
    const bids = auction.pings.map((ping, index) => {
      const answer = answers[index]
      const expiresAt =
        answer.expiresInSeconds !== null
          ? new Date(now.getTime() + answer.expiresInSeconds * 1000)
          : null
      return { ...ping, answer, expiresAt }
    })
    const priced = byPrice(
      pricedCandidates(
        candidates,
        bids.map(({ attemptId, ruleId, buyerId, answer, expiresAt }) => ({
          id: attemptId,
          routingRuleId: ruleId,
          buyerId,
          kind: 'ping' as const,
          outcome: answer.outcome,
          exclusive: true,
          startedAt: now,
          bidCents: answer.bidCents,
          bidId: answer.bidId,
          bidExpiresAt: expiresAt,
        })),
        now
      )
    )
    const best =
      priced.find(({ rule, price }) => funds.canPay(rule.buyerId, rule.currency, price)) ?? null
    const price = best ? clearingPrice(priced, priced.indexOf(best), settings) : null
    const bestBid = best?.bidId !== null ? bids.find((bid) => bid.ruleId === best?.rule.id) : null
    const expiresAt = new Date(
      Math.min(now.getTime() + PING_TTL_MS, bestBid?.expiresAt?.getTime() ?? Infinity)
    )
    const digest = pingDigest(publisher.id, environment, fields, publisher.country)
    await db.table('pings').insert({
      id,
      publisher_id: publisher.id,
      environment,
      fields_digest: digest,
      bids: JSON.stringify(
        bids.map(({ ruleId, buyerId, destinationId, answer, expiresAt: held }) => ({
          routing_rule_id: ruleId,
          buyer_id: buyerId,
          destination_id: destinationId,
          outcome: answer.outcome,
          reason: answer.reason,
          bid_cents: answer.bidCents,
          bid_id: answer.bidId,
          expires_at: held?.toISOString() ?? null,
          duration_ms: answer.durationMs,
        }))
      ),
      routing_rule_id: best?.rule.id ?? null,
      price_cents: price,
      payout_cents: best && price !== null ? payoutOf(best.rule, price) : null,
      currency: best?.rule.currency ?? null,
      expires_at: expiresAt,
      created_at: now,
    })
    return {
      ping_id: pingIdOf(id, digest),
      offer:
        best && price !== null
          ? { payout_cents: payoutOf(best.rule, price), currency: best.rule.currency }
          : null,
      expires_at: expiresAt.toISOString(),
    }
  }
}

/** The partial lead as an auction sees it: no contact but where, nothing the ping did not carry. */
function partialSaleLead(
  id: string,
  fields: PingFields,
  label: string | null,
  country: string
): SaleLead {
  return {
    lead_id: id,
    buyer_id: '',
    status: 'matched',
    contact: {
      name: null,
      email: null,
      phone: null,
      postal_code: fields.contact?.postal_code ?? null,
      country: fields.contact?.country ?? country,
    },
    provenance: {
      source: fields.provenance?.source ?? null,
      campaign: fields.provenance?.campaign ?? null,
      label,
      landing_page: fields.provenance?.landing_page ?? null,
    },
    consent: { given: false, text: null, timestamp: null, ip: null },
    attributes: fields.attributes ?? {},
  }
}
