import db from '@adonisjs/lucid/services/db'
import Buyer from '#models/buyer'
import RoutingRule from '#models/routing_rule'
import { seededRandom } from '#services/routing/selection'

export type RoutingBenchSeed = {
  /** Rules to create (default 500), spread over `buyers` buyers (default 50). */
  rules?: number
  buyers?: number
  /** Publishers the rules may be scoped to; a rule names one of them or none (any publisher). */
  publisherIds?: string[]
  seed?: number
}

const ZONES = ['Europe/Amsterdam', 'Europe/London', 'America/New_York', 'Asia/Tokyo', 'UTC']
const ALL_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']

/**
 * A routing table the size the benchmark asks for, shaped like a real one:
 * every dimension in use (publishers, criteria over the bench leads'
 * attributes, schedules in several zones, caps, priorities, weights), with
 * schedules open and caps high so the table, not the calendar, is measured.
 * Not for production data: it adds buyers and rules.
 */
export async function seedRoutingBench(options: RoutingBenchSeed = {}) {
  const ruleCount = options.rules ?? 500
  const buyerCount = options.buyers ?? 50
  const publisherIds = options.publisherIds ?? []
  const random = seededRandom(options.seed ?? 1)
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]

  const buyers = await Buyer.createMany(
    Array.from({ length: buyerCount }, (_, i) => ({
      name: `Bench buyer ${i}`,
      contactEmail: `bench-buyer-${i}@bench.example`,
      status: 'active' as const,
    }))
  )
  const rules = Array.from({ length: ruleCount }, (_, i) => {
    const minAge = 18 + Math.floor(random() * 40)
    const price = 500 + Math.floor(random() * 4500)
    return {
      buyerId: buyers[i % buyers.length].id,
      labelIds: [],
      publisherIds: publisherIds.length > 0 && random() < 0.5 ? [pick(publisherIds)] : [],
      criteria: [
        ...(random() < 0.6
          ? [{ field: 'attributes.age', op: 'between' as const, value: [minAge, minAge + 25] }]
          : []),
        ...(random() < 0.2
          ? [{ field: 'attributes.homeowner', op: 'eq' as const, value: true }]
          : []),
        ...(random() < 0.3 ? [{ field: 'contact.country', op: 'eq' as const, value: 'NL' }] : []),
      ],
      priceCents: price,
      payoutCents: Math.floor(price * 0.6),
      currency: 'EUR',
      caps: random() < 0.3 ? { daily: 1_000_000, monthly: 10_000_000 } : {},
      schedule:
        random() < 0.3
          ? { timezone: pick(ZONES), windows: [{ days: ALL_DAY, from: '00:00', to: '24:00' }] }
          : null,
      priority: Math.floor(random() * 5),
      weight: 1 + Math.floor(random() * 10),
      enabled: true,
    }
  })
  await RoutingRule.createMany(rules)
  return { buyers: buyers.map((buyer) => buyer.id), rules: ruleCount }
}

export type LatencySummary = {
  count: number
  /** Expected but never seen when the run ended: counted as slower than any, never left out. */
  lost: number
  p50_ms: number | null
  p95_ms: number | null
  p99_ms: number | null
  max_ms: number | null
}

/** Percentiles over every expected arrival; one that falls among the lost is null ("lost"). */
export function summarise(latencies: number[], lost = 0): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b)
  const total = sorted.length + lost
  const at = (q: number) => {
    const index = Math.min(total - 1, Math.ceil(q * total) - 1)
    return total > 0 && index < sorted.length ? Math.round(sorted[index]) : null
  }
  return {
    count: sorted.length,
    lost,
    p50_ms: at(0.5),
    p95_ms: at(0.95),
    p99_ms: at(0.99),
    max_ms: at(1),
  }
}

/**
 * From Postgres, for live leads accepted since `since`: acceptance (the
 * facts row) to the match, and to the first successful `match.found`
 * delivery (when buyers have endpoints). For `bench:intake` to report
 * next to its own figures.
 */
export async function routingLatencySince(since: Date) {
  const matched = await db.rawQuery(
    `SELECT extract(epoch FROM (matched_at - created_at)) * 1000 AS ms FROM lead_facts
     WHERE environment = 'live' AND created_at >= ? AND matched_at IS NOT NULL`,
    [since]
  )
  const outcomes = await db.rawQuery(
    `SELECT coalesce(unsold_reason, status) AS outcome, count(*)::int AS leads FROM lead_facts
     WHERE environment = 'live' AND created_at >= ? AND status IN ('accepted', 'matched')
     GROUP BY 1`,
    [since]
  )
  const lost = await db.rawQuery(
    `SELECT count(*)::int AS leads FROM lead_facts f
     WHERE f.environment = 'live' AND f.created_at >= ? AND f.matched_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM outbox_events e JOIN webhook_deliveries d ON d.event_id = e.id
                        WHERE e.lead_id = f.lead_id AND e.type = 'match.found' AND d.succeeded_at IS NOT NULL)`,
    [since]
  )
  const delivered = await db.rawQuery(
    `SELECT extract(epoch FROM (min(d.succeeded_at) - f.created_at)) * 1000 AS ms
     FROM lead_facts f
     JOIN outbox_events e ON e.lead_id = f.lead_id AND e.type = 'match.found'
     JOIN webhook_deliveries d ON d.event_id = e.id AND d.succeeded_at IS NOT NULL
     WHERE f.environment = 'live' AND f.created_at >= ?
     GROUP BY f.lead_id, f.created_at`,
    [since]
  )
  return {
    outcomes: Object.fromEntries(outcomes.rows.map((row: any) => [row.outcome, row.leads])),
    accepted_to_matched: summarise(matched.rows.map((row: any) => Number(row.ms))),
    accepted_to_delivered: summarise(
      delivered.rows.map((row: any) => Number(row.ms)),
      lost.rows[0].leads
    ),
  }
}
