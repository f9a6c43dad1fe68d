import type { ActiveRule } from '#services/routing/rule_book'

let serial = 0

/** A rule as routing reads it, selling by Leadgate's webhook unless `overrides` say otherwise. */
export function activeRule(overrides: Partial<ActiveRule> = {}): ActiveRule {
  serial++
  return {
    id: `rule-${serial}`,
    buyerId: `buyer-${serial}`,
    environment: 'live',
    labelIds: [],
    publisherIds: [],
    criteria: [],
    buyerCriteria: [],
    destinationId: null,
    destinationKind: 'webhook',
    destinationTimeoutMs: 10_000,
    mode: 'fixed',
    exclusive: true,
    reserveCents: null,
    buyerDuplicateWindowDays: null,
    payoutSharePercent: null,
    priceCents: 1000,
    payoutCents: 500,
    currency: 'EUR',
    returnWindowHours: 168,
    caps: {},
    schedule: null,
    priority: 0,
    weight: 1,
    changedAt: new Date(0),
    ...overrides,
  }
}
