import type { ActiveRule } from '#services/routing/rule_book'
import type { CapLedger, ReservedUnits } from '#services/routing/caps'
import type { SaleSettings } from '#services/routing/sale_settings'
import type { UnsoldReason } from '#services/routing/selection'

/** A lead's earlier offer to a buyer, as its `sale_attempts` row holds it. */
export type PastAttempt = {
  id: string
  routingRuleId: string | null
  buyerId: string
  outcome: string | null
  exclusive: boolean
  startedAt: Date
}

/** What the walk decided for one lead in this transaction. */
export type WalkResult = {
  /** Rules sold to now, without a call (Leadgate's own webhook): recorded in this transaction. */
  sold: { rule: ActiveRule; exclusive: boolean; units: ReservedUnits }[]
  /** The one rule to post to next, its cap units reserved; the post runs after the commit. */
  offer: { rule: ActiveRule; exclusive: boolean; units: ReservedUnits } | null
  /** Set when the sale is over: the lead is sold (null) or unsold (why). */
  done: { unsold: UnsoldReason | null } | null
}

/** Outcomes after which a buyer never sees the lead again: it said no, or has it already. */
const FINAL_FOR_BUYER = new Set(['rejected', 'duplicate'])

/**
 * Offers a lead to its candidates in order (DESIGN §14) until the sale is decided or a buyer's
 * system must be called. Candidates are the screened rules in priority order; this skips the
 * ones this sale already offered it to, the buyers that turned it down before or already
 * bought it, and those whose caps are full. A rule of Leadgate's own webhook sells at once; the
 * first rule that needs a call becomes the offer, and the walk resumes when its answer is in.
 *
 * Exclusive or shared: with `maxSales` above 1 the walk compares the best exclusive sale (the
 * first exclusive candidate's price) with the best shared one (the prices of the first
 * `maxSales` shared candidates of distinct buyers) and tries the richer plan first, the other
 * when the first sells nothing. A shared sale continues to further buyers until `maxSales`.
 */
export function walkSale(input: {
  candidates: ActiveRule[]
  attempts: PastAttempt[]
  runStartedAt: Date | null
  settings: SaleSettings
  caps: CapLedger
  at: Date
  /** The screen's reason, for a lead no rule would take at all. */
  screenReason: UnsoldReason
}): WalkResult {
  const { candidates, attempts, settings, caps, at } = input
  const result: WalkResult = { sold: [], offer: null, done: null }
  const runStart = input.runStartedAt
  const offeredThisRun = new Set(
    attempts
      .filter((attempt) => runStart && attempt.startedAt >= runStart && attempt.routingRuleId)
      .map((attempt) => attempt.routingRuleId!)
  )
  const soldTo = new Set<string>()
  const closedBuyers = new Set<string>()
  let soldExclusive = false
  for (const attempt of attempts) {
    if (attempt.outcome === 'accepted') {
      soldTo.add(attempt.buyerId)
      if (attempt.exclusive) soldExclusive = true
    }
    if (attempt.outcome && FINAL_FOR_BUYER.has(attempt.outcome)) closedBuyers.add(attempt.buyerId)
  }
  const shared = settings.maxSales > 1
  const soldCount = () => soldTo.size
  const finish = (unsold: UnsoldReason | null) => {
    result.done = { unsold }
    return result
  }
  if (soldExclusive || (soldCount() > 0 && !shared) || soldCount() >= settings.maxSales) {
    return finish(null)
  }
  if (runStart && at.getTime() > runStart.getTime() + settings.deadlineSeconds * 1000) {
    return finish(soldCount() > 0 ? null : 'deadline')
  }

  let turnedDown = false
  const open = candidates.filter((rule) => {
    if (offeredThisRun.has(rule.id) || closedBuyers.has(rule.buyerId)) {
      turnedDown = true
      return false
    }
    return !soldTo.has(rule.buyerId)
  })
  const plan = planOrder(open, settings, soldCount() > 0)
  let capped = false
  for (const { rule, exclusive } of plan) {
    // One sale per buyer; a shared sale never sits beside an exclusive one.
    if (soldTo.has(rule.buyerId)) continue
    if (exclusive && soldCount() > 0) continue
    const units = caps.take(rule, at, rule.priceCents)
    if (!units) {
      capped = true
      continue
    }
    if (rule.destinationKind !== 'webhook') {
      result.offer = { rule, exclusive, units }
      return result
    }
    result.sold.push({ rule, exclusive, units })
    soldTo.add(rule.buyerId)
    if (exclusive || soldCount() >= settings.maxSales) return finish(null)
  }
  if (soldCount() > 0) return finish(null)
  if (turnedDown) return finish('rejected')
  return finish(capped ? 'cap_reached' : input.screenReason)
}

/**
 * The candidates in the order the walk offers them, each with whether its sale would be
 * exclusive. With one sale per lead every sale is exclusive. Once a shared sale exists only
 * shared candidates remain.
 */
function planOrder(open: ActiveRule[], settings: SaleSettings, sharing: boolean) {
  if (settings.maxSales <= 1) return open.map((rule) => ({ rule, exclusive: true }))
  const exclusive = open.filter((rule) => rule.exclusive)
  const sharedRules = open.filter((rule) => !rule.exclusive)
  const sharedPlan = sharedRules.map((rule) => ({ rule, exclusive: false }))
  if (sharing) return sharedPlan
  const exclusivePlan = exclusive.map((rule) => ({ rule, exclusive: true }))
  const buyers = new Set<string>()
  let sharedValue = 0
  for (const rule of sharedRules) {
    if (buyers.size >= settings.maxSales || buyers.has(rule.buyerId)) continue
    buyers.add(rule.buyerId)
    sharedValue += rule.priceCents
  }
  const exclusiveValue = exclusive[0]?.priceCents ?? 0
  return sharedValue > exclusiveValue
    ? [...sharedPlan, ...exclusivePlan]
    : [...exclusivePlan, ...sharedPlan]
}
