import type RoutingRule from '#models/routing_rule'

/**
 * The rule stores label ids; callers speak label slugs. `labelSlugs` maps
 * the one to the other (RoutingRuleService.labelSlugsFor).
 */
export function routingRuleToJson(
  rule: RoutingRule,
  labelSlugs: ReadonlyMap<string, string>,
  reader: { buyer?: boolean } = {}
) {
  const json = {
    id: rule.id,
    buyer_id: rule.buyerId,
    environment: rule.environment,
    labels: rule.labelIds.map((id) => labelSlugs.get(id)).filter((slug) => slug !== undefined),
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
    created_at: rule.createdAt.toUTC().toISO(),
    updated_at: rule.updatedAt.toUTC().toISO(),
  }
  if (!reader.buyer) return json
  // A buyer reads its own rules without the publisher side: who supplies them and what they earn.
  const forBuyer: Partial<typeof json> = { ...json }
  delete forBuyer.payout_cents
  delete forBuyer.payout_share_percent
  delete forBuyer.publishers
  return forBuyer
}
