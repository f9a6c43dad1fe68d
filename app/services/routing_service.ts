import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import TenancyService from '#services/tenancy_service'
import OutboxService from '#services/outbox_service'
import AuditChainService from '#services/audit_chain_service'
import RoutingRuleBook, { RULES_VERSION_SQL, type ActiveRule } from '#services/routing_rule_book'
import { reserveCap } from '#services/routing_caps'
import { matchFoundData } from '#services/routing_match_event'
import { rankCandidates, screen, type UnsoldReason } from '#services/routing_selection'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'

export type RoutingOutcome =
  | { outcome: 'matched'; leadId: string; ruleId: string; buyerId: string }
  | { outcome: 'unsold'; leadId: string; reason: UnsoldReason }
  | { outcome: 'skipped'; leadId: string; reason: 'unknown' | 'sandbox' | 'not_accepted' }

export type RouteOptions = {
  /** The routing moment: schedules, cap periods and timestamps read it (tests move it). */
  now?: Date
  /** Uniform [0, 1) source for the weighted choice among equal priorities. */
  random?: () => number
}

type LeadContext = {
  leadId: string
  publisherId: string
  labelId: string | null
  labelSlug: string | null
  schemaName: string
  country: string
}

/**
 * Sells one accepted live lead to one buyer (exclusive delivery). Safe to
 * run twice for a lead, or for many leads at once: the lead row is locked
 * for the decision and only an `accepted` lead is routed.
 */
@inject()
export default class RoutingService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService,
    protected book: RoutingRuleBook
  ) {}

  async route(leadId: string, options: RouteOptions = {}): Promise<RoutingOutcome> {
    const now = options.now ?? new Date()
    const random = options.random ?? Math.random
    const fact = await db
      .from('lead_facts as f')
      .join('publishers as p', 'p.id', 'f.publisher_id')
      .leftJoin('labels as l', 'l.id', 'f.label_id')
      .where('f.lead_id', leadId)
      .select('f.environment', 'f.status', 'f.buyer_id', 'f.publisher_id', 'f.label_id')
      .select('p.schema_name', 'p.country', 'l.slug as label_slug')
      .select(db.raw(`${RULES_VERSION_SQL} AS rules_version`))
      .first()
    if (!fact) return { outcome: 'skipped', leadId, reason: 'unknown' }
    // Sandbox leads exercise integrations; they are never sold.
    if (fact.environment !== 'live') return { outcome: 'skipped', leadId, reason: 'sandbox' }
    if (fact.status !== 'accepted' || fact.buyer_id) {
      return { outcome: 'skipped', leadId, reason: 'not_accepted' }
    }
    const rules = await this.book.current(fact.rules_version)
    const context: LeadContext = {
      leadId,
      publisherId: fact.publisher_id,
      labelId: fact.label_id,
      labelSlug: fact.label_slug ?? null,
      schemaName: fact.schema_name,
      country: fact.country,
    }

    return this.tenancy.run({ schemaName: context.schemaName }, async (trx) => {
      const lead = await trx.from('leads').where('id', leadId).forUpdate().first()
      if (!lead || lead.status !== 'accepted') {
        return { outcome: 'skipped', leadId, reason: 'not_accepted' } as const
      }
      const input: LeadInput = {
        publisher: '',
        contact: lead.contact,
        provenance: lead.provenance,
        consent: lead.consent,
        attributes: lead.attributes,
      }
      const { eligible, reason } = screen(
        rules,
        {
          publisherId: context.publisherId,
          labelId: context.labelId,
          input,
          normalised: normaliseLead(input, context.country),
        },
        now
      )
      for (const rule of rankCandidates(eligible, random)) {
        if (await reserveCap(trx, rule, now)) {
          await this.recordMatch(trx, context, lead, rule, now)
          return { outcome: 'matched', leadId, ruleId: rule.id, buyerId: rule.buyerId } as const
        }
      }
      await trx
        .from('public.lead_facts')
        .where('lead_id', leadId)
        .update({ unsold_reason: reason, routed_at: now, updated_at: now })
      return { outcome: 'unsold', leadId, reason } as const
    })
  }

  /** Everything a match changes, in the routing transaction: lead, facts, audit trail, event. */
  private async recordMatch(
    trx: TransactionClientContract,
    context: LeadContext,
    lead: any,
    rule: ActiveRule,
    now: Date
  ) {
    // One statement for both tiers: the lead in its schema, its facts in public.
    await trx.rawQuery(
      `WITH lead AS (UPDATE leads SET status = 'matched', updated_at = ? WHERE id = ?)
       UPDATE public.lead_facts SET status = 'matched', buyer_id = ?, routing_rule_id = ?,
         price_cents = ?, payout_cents = ?, currency = ?, matched_at = ?, routed_at = ?,
         unsold_reason = NULL, updated_at = ?
       WHERE lead_id = ?`,
      [
        now,
        context.leadId,
        rule.buyerId,
        rule.id,
        rule.priceCents,
        rule.payoutCents,
        rule.currency,
        now,
        now,
        now,
        context.leadId,
      ]
    )
    await this.audit.append(trx, {
      publisherId: context.publisherId,
      leadId: context.leadId,
      environment: 'live',
      entries: [
        {
          event: 'lead.delivered',
          actor: `rule:${rule.id}`,
          statusFrom: 'accepted',
          statusTo: 'matched',
        },
      ],
    })
    // Only the buyer's endpoints get this event: it carries the contact and the price, so no publisher id.
    await this.outbox.publish(
      trx,
      [
        {
          type: 'match.found',
          publisherId: null,
          buyerId: rule.buyerId,
          leadId: context.leadId,
          environment: 'live',
          data: matchFoundData(lead, rule, context.labelSlug, now),
        },
      ],
      now
    )
  }
}
