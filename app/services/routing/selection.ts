import type { AudienceCriterion } from '#services/quality/quality_rules'
import type { LeadInput, Normalised } from '#services/quality/types'
import { comparableValueAt, isBlank } from '#services/quality/fields'
import { OPERATORS } from '#services/quality/rules/audience_operators'
import type { ActiveRule } from '#services/routing/rule_book'
import { withinSchedule } from '#services/routing/schedule'

/** Why a live accepted lead found no buyer: the furthest any rule got. */
export type UnsoldReason =
  | 'no_rule'
  | 'criteria'
  | 'outside_schedule'
  | 'cap_reached'
  /** Every buyer offered the lead turned it down, failed to answer, or answered an error. */
  | 'rejected'
  /** The label's sale deadline passed while the lead fell through from buyer to buyer. */
  | 'deadline'
  /** The buyers that would take it cannot pay for it now (their funds, DESIGN §16). */
  | 'insufficient_funds'
  /** Its only buyers bought the same consumer within their duplicate window (DESIGN §15). */
  | 'buyer_duplicate'

export type RoutableLead = {
  publisherId: string
  labelId: string | null
  input: LeadInput
  normalised: Normalised
}

/**
 * Routing-rule criteria read the lead exactly as target-audience rules do
 * (same operators, same normalised contact values); a field the lead lacks
 * fails its criterion.
 */
export function criteriaHold(criteria: AudienceCriterion[], lead: RoutableLead) {
  return criteria.every((criterion) => {
    const actual = comparableValueAt(lead.input, lead.normalised, criterion.field)
    const operator = OPERATORS[criterion.op] as
      ((actual: unknown, expected: unknown) => boolean) | undefined
    return !isBlank(actual) && operator?.(actual, criterion.value) === true
  })
}

/**
 * The rules that may take the lead now, before caps: the ones for its label
 * and publisher (an empty list means any), whose criteria hold and whose
 * schedule is open. When none is left, `reason` says where they all fell out.
 */
export function screen(rules: ActiveRule[], lead: RoutableLead, at: Date) {
  const stages = { scoped: 0, criteria: 0 }
  const eligible: ActiveRule[] = []
  for (const rule of rules) {
    if (rule.labelIds.length > 0 && (!lead.labelId || !rule.labelIds.includes(lead.labelId)))
      continue
    if (rule.publisherIds.length > 0 && !rule.publisherIds.includes(lead.publisherId)) continue
    stages.scoped++
    if (!criteriaHold(rule.criteria, lead) || !criteriaHold(rule.buyerCriteria, lead)) continue
    stages.criteria++
    if (!withinSchedule(rule.schedule, at)) continue
    eligible.push(rule)
  }
  const reason: UnsoldReason =
    eligible.length > 0
      ? 'cap_reached'
      : stages.criteria > 0
        ? 'outside_schedule'
        : stages.scoped > 0
          ? 'criteria'
          : 'no_rule'
  return { eligible, reason }
}

/**
 * The order in which to offer the lead: highest priority first; among equal
 * priorities a weighted random order (Efraimidis–Spirakis: each rule draws
 * -ln(u)/weight and the smallest goes first), so a rule of weight 3 comes
 * first three times as often as one of weight 1, and the next in line still
 * gets its chance when the first is capped out.
 */
export function rankCandidates<Rule extends Pick<ActiveRule, 'priority' | 'weight'>>(
  rules: Rule[],
  random: () => number
): Rule[] {
  return rules
    .map((rule) => ({ rule, key: -Math.log(1 - random()) / Math.max(rule.weight, 1) }))
    .sort((a, b) => b.rule.priority - a.rule.priority || a.key - b.key)
    .map(({ rule }) => rule)
}

/**
 * A small seedable generator (mulberry32) so tests and benchmarks replay
 * the same weighted choices; production uses Math.random.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
