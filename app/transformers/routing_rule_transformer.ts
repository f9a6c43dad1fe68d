import type RoutingRule from '#models/routing_rule'

/**
 * The rule stores label ids; callers speak label slugs. `labelSlugs` maps
 * the one to the other (RoutingRuleService.labelSlugsFor).
 */
export function routingRuleToJson(rule: RoutingRule, labelSlugs: ReadonlyMap<string, string>) {
  return {
    id: rule.id,
    buyer_id: rule.buyerId,
    environment: rule.environment,
    labels: rule.labelIds.map((id) => labelSlugs.get(id)).filter((slug) => slug !== undefined),
    publishers: rule.publisherIds,
    criteria: rule.criteria,
    price_cents: rule.priceCents,
    payout_cents: rule.payoutCents,
    currency: rule.currency,
    caps: rule.caps,
    schedule: rule.schedule,
    priority: rule.priority,
    weight: rule.weight,
    enabled: rule.enabled,
    return_window_hours: rule.returnWindowHours ?? null,
    created_at: rule.createdAt.toUTC().toISO(),
    updated_at: rule.updatedAt.toUTC().toISO(),
  }
}
