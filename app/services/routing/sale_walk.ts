import type { ActiveRule } from '#services/routing/rule_book'
import type { CapLedger, ReservedUnits } from '#services/routing/caps'
import type { FundsHold, FundsLedger } from '#services/routing/funds'
import type { SaleSettings } from '#services/routing/sale_settings'
import type { UnsoldReason } from '#services/routing/selection'

/** A lead's earlier offer to a buyer, as its `sale_attempts` row holds it. */
export type PastAttempt = {
  id: string
  routingRuleId: string | null
  buyerId: string
  kind: 'ping' | 'post'
  outcome: string | null
  exclusive: boolean
  startedAt: Date
  bidCents: number | null
  bidId: string | null
  bidExpiresAt: Date | null
}

/** A candidate as the walk sells it: at its price (a fixed rule's, or its buyer's bid). */
export type Pick = {
  rule: ActiveRule
  exclusive: boolean
  units: ReservedUnits
  /** The price held against the buyer's funds (empty when its funds are not kept). */
  funds: FundsHold[]
  /** What the buyer pays: the rule's price, or what the auction cleared at. */
  priceCents: number
  /** The buyer's own bid id, for a post after its winning bid. */
  bidId: string | null
}

/** What the walk decided for one lead in this transaction. */
export type WalkResult = {
  /** Rules sold to now, without a call (Leadgate's own webhook): recorded in this transaction. */
  sold: Pick[]
  /** The one rule to post to next, its cap units reserved; the post runs after the commit. */
  offer: Pick | null
  /** The ping-post rules to ping at once, before anything is sold (an auction). */
  auction: { rules: ActiveRule[] } | null
  /** Set when the sale is over: the lead is sold (null) or unsold (why). */
  done: { unsold: UnsoldReason | null } | null
}

/** Outcomes after which a buyer never sees the lead again: it said no, or has it already. */
const FINAL_FOR_BUYER = new Set(['rejected', 'duplicate'])

export type Priced = { rule: ActiveRule; price: number; bidId: string | null }

/**
 * Offers a lead to its candidates in order (DESIGN §14) until the sale is decided or a buyer's
 * system must be called. Candidates are the screened rules in priority order; this skips the
 * ones this sale already offered it to, the buyers that turned it down before or already
 * bought it, and those whose caps are full. A rule of Leadgate's own webhook sells at once; the
 * first rule that needs a call becomes the offer, and the walk resumes when its answer is in.
 *
 * Ping-post: when ping-post rules are among the candidates, the sale begins with an auction:
 * every one of them is pinged at once (`auction`), and nothing sells before the bids are in.
 * Then every candidate has a price (a fixed rule's own, the buyer's bid), and they are offered
 * highest price first; a bid below its rule's reserve, missing or expired takes no part, and a
 * rejected post goes to the next price without pinging again. With a second-price auction a
 * winning bid pays the next price plus one cent (at most its bid, at least its reserve).
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
  funds: FundsLedger
  at: Date
  /** The screen's reason, for a lead no rule would take at all. */
  screenReason: UnsoldReason
}): WalkResult {
  const { candidates, attempts, settings, caps, funds, at } = input
  const result: WalkResult = { sold: [], offer: null, auction: null, done: null }
  const runStart = input.runStartedAt
  const thisRun = attempts.filter((attempt) => runStart && attempt.startedAt >= runStart)
  const offeredThisRun = new Set(
    thisRun
      .filter((attempt) => attempt.kind === 'post' && attempt.routingRuleId)
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

  const pinged = thisRun.filter((attempt) => attempt.kind === 'ping')
  const pingRules = open.filter((rule) => rule.mode === 'ping_post')
  if (pinged.length === 0 && pingRules.length > 0 && soldCount() === 0) {
    // A buyer whose caps are full, or who could not pay its rule's reserve, is not asked to bid
    // on what it could not buy.
    const pingable = pingRules.filter(
      (rule) =>
        caps.hasRoom(rule, at) &&
        funds.canPay(rule.buyerId, rule.currency, Math.max(rule.reserveCents ?? 0, 1))
    )
    if (pingable.length > 0) {
      result.auction = { rules: pingable }
      return result
    }
  }

  const priced = pricedCandidates(open, pinged, at)
  const auctioned = pinged.length > 0
  const plan = planOrder(priced, settings, soldCount() > 0, auctioned)
  let capped = false
  let short = false
  for (const [index, { rule, bidId, exclusive }] of plan.entries()) {
    // One sale per buyer; a shared sale never sits beside an exclusive one.
    if (soldTo.has(rule.buyerId)) continue
    if (exclusive && soldCount() > 0) continue
    const priceCents = clearingPrice(plan, index, settings)
    const units = caps.take(rule, at, priceCents)
    if (!units) {
      capped = true
      continue
    }
    // Never offered what it cannot pay for: the price is held before the buyer is asked.
    const held = funds.hold(rule.buyerId, rule.currency, priceCents)
    if (!held) {
      caps.release(units)
      short = true
      continue
    }
    const pick: Pick = { rule, exclusive, units, funds: held, priceCents, bidId }
    if (rule.destinationKind !== 'webhook') {
      result.offer = pick
      return result
    }
    funds.capture(held)
    result.sold.push(pick)
    soldTo.add(rule.buyerId)
    if (exclusive || soldCount() >= settings.maxSales) return finish(null)
  }
  if (soldCount() > 0) return finish(null)
  if (short) return finish('insufficient_funds')
  if (turnedDown || auctioned) return finish('rejected')
  return finish(capped ? 'cap_reached' : input.screenReason)
}

/**
 * Every open candidate with its price: a fixed rule at its own, a ping-post rule at its buyer's
 * bid from this sale's auction while the bid holds; a ping-post rule without one takes no part.
 */
export function pricedCandidates(open: ActiveRule[], pinged: PastAttempt[], at: Date): Priced[] {
  const bids = new Map<string, PastAttempt>()
  for (const ping of pinged) {
    if (ping.outcome !== 'bid' || ping.bidCents === null || !ping.routingRuleId) continue
    if (ping.bidExpiresAt && ping.bidExpiresAt <= at) continue
    bids.set(ping.routingRuleId, ping)
  }
  return open.flatMap((rule): Priced[] => {
    if (rule.mode !== 'ping_post') return [{ rule, price: rule.priceCents, bidId: null }]
    const bid = bids.get(rule.id)
    if (!bid || bid.bidCents! < (rule.reserveCents ?? 1)) return []
    return [{ rule, price: bid.bidCents!, bidId: bid.bidId ?? '' }]
  })
}

/** What the candidate at `index` of a price-ordered list pays, by the label's auction. */
export function clearingPrice(ordered: Priced[], index: number, settings: SaleSettings) {
  const { price, bidId, rule } = ordered[index]
  return bidId !== null && settings.auction === 'second_price'
    ? secondPrice(price, ordered.slice(index + 1), rule)
    : price
}

/** Highest price first (a fixed price is a bid); equal prices keep their priority order. */
export function byPrice<T extends Priced>(priced: T[]) {
  return priced
    .map((candidate, rank) => ({ candidate, rank }))
    .sort((a, b) => b.candidate.price - a.candidate.price || a.rank - b.rank)
    .map(({ candidate }) => candidate)
}

/** A second-price winner pays the next price plus a cent: never more than its bid, never under its reserve. */
function secondPrice(bid: number, after: Priced[], rule: ActiveRule) {
  const next = after.find((other) => other.rule.buyerId !== rule.buyerId)?.price
  const floor = rule.reserveCents ?? 0
  // Alone, a bid pays its reserve, or itself when the rule has none.
  if (next === undefined) return floor > 0 ? Math.min(bid, floor) : bid
  return Math.min(bid, Math.max(next + 1, floor))
}

/**
 * The candidates in the order the walk offers them, each with whether its sale would be
 * exclusive: after an auction, highest price first (a fixed price is a bid; equal prices keep
 * their priority order); otherwise in priority order. With one sale per lead every sale is
 * exclusive. Once a shared sale exists only shared candidates remain.
 */
function planOrder(
  priced: Priced[],
  settings: SaleSettings,
  sharing: boolean,
  ranked: boolean
): (Priced & { exclusive: boolean })[] {
  const ordered = ranked ? byPrice(priced) : priced
  if (settings.maxSales <= 1) return ordered.map((candidate) => ({ ...candidate, exclusive: true }))
  const exclusivePlan = ordered
    .filter((candidate) => candidate.rule.exclusive)
    .map((candidate) => ({ ...candidate, exclusive: true }))
  const sharedPlan = ordered
    .filter((candidate) => !candidate.rule.exclusive)
    .map((candidate) => ({ ...candidate, exclusive: false }))
  if (sharing) return sharedPlan
  const buyers = new Set<string>()
  let sharedValue = 0
  for (const { rule, price } of sharedPlan) {
    if (buyers.size >= settings.maxSales || buyers.has(rule.buyerId)) continue
    buyers.add(rule.buyerId)
    sharedValue += price
  }
  const exclusiveValue = exclusivePlan[0]?.price ?? 0
  return sharedValue > exclusiveValue
    ? [...sharedPlan, ...exclusivePlan]
    : [...exclusivePlan, ...sharedPlan]
}
