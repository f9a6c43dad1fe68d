import { BaseTransformer } from '@adonisjs/core/transformers'
import type RoutingRule from '#models/routing_rule'
import type { CapUsage } from '#services/routing/caps'
import { criteriaInWords, scheduleInWords } from '#services/routing/rule_words'
import { isoTime } from '#services/sql/timestamps'

/**
 * The rule stores label ids; callers speak label slugs. `labelSlugs` maps
 * the one to the other (RoutingRuleService.labelSlugsFor); `usage`, each
 * rule's caps used in their current day and month (capUsage), for the portal.
 */
export default class RoutingRuleTransformer extends BaseTransformer<RoutingRule> {
  constructor(
    rule: RoutingRule,
    protected labelSlugs: ReadonlyMap<string, string>,
    protected usage?: ReadonlyMap<string, CapUsage>
  ) {
    super(rule)
  }

  toObject() {
    const rule = this.resource
    return {
      id: rule.id,
      buyer_id: rule.buyerId,
      environment: rule.environment,
      labels: rule.labelIds
        .map((id) => this.labelSlugs.get(id))
        .filter((slug) => slug !== undefined),
      publishers: rule.publisherIds,
      criteria: rule.criteria,
      buyer_criteria: rule.buyerCriteria ?? [],
      destination_id: rule.destinationId ?? null,
      mode: rule.mode ?? 'fixed',
      exclusive: rule.exclusive ?? true,
      reserve_cents: rule.reserveCents ?? null,
      payout_share_percent: rule.payoutSharePercent ?? null,
      price_cents: rule.priceCents,
      payout_cents: rule.payoutCents,
      currency: rule.currency,
      caps: rule.caps,
      schedule: rule.schedule,
      priority: rule.priority,
      weight: rule.weight,
      enabled: rule.enabled,
      status: rule.enabled ? ('active' as const) : ('paused' as const),
      return_window_hours: rule.returnWindowHours ?? null,
      created_at: isoTime(rule.createdAt),
      updated_at: isoTime(rule.updatedAt),
    }
  }

  /** A buyer's own rule: without the publisher side, who supplies it and what they earn. */
  forBuyer() {
    const {
      payout_cents: payout,
      payout_share_percent: share,
      publishers,
      ...rest
    } = this.toObject()
    void [payout, share, publishers]
    return rest
  }

  /** A rule as the portal lists it: its caps' usage, its schedule and criteria in words. */
  withUsage() {
    const rule = this.resource
    return {
      ...this.toObject(),
      usage: this.usage?.get(rule.id) ?? {},
      schedule_text: scheduleInWords(rule.schedule),
      criteria_text: criteriaInWords(rule.criteria),
    }
  }

  /** A buyer's own rule in the buyer portal: without the publisher side, with its caps' usage and words. */
  forBuyerWithUsage() {
    const rule = this.resource
    return {
      ...this.forBuyer(),
      usage: this.usage?.get(rule.id) ?? {},
      schedule_text: scheduleInWords(rule.schedule),
      criteria_text: criteriaInWords(rule.criteria),
      buyer_criteria_text: criteriaInWords(rule.buyerCriteria ?? []),
    }
  }
}
