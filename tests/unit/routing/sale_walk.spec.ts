import { test } from '@japa/runner'
import { CapLedger } from '#services/routing/caps'
import { FundsLedger } from '#services/routing/funds'
import { SALE_DEFAULTS, type SaleSettings } from '#services/routing/sale_settings'
import { type PastAttempt, walkSale } from '#services/routing/sale_walk'
import type { ActiveRule } from '#services/routing/rule_book'
import { activeRule } from '#tests/unit/routing/active_rule'

const AT = new Date('2026-12-02T10:00:00Z')

function walk(
  candidates: ActiveRule[],
  options: { attempts?: PastAttempt[]; settings?: Partial<SaleSettings>; runStartedAt?: Date } = {}
) {
  return walkSale({
    candidates,
    attempts: options.attempts ?? [],
    runStartedAt: options.runStartedAt ?? null,
    settings: { ...SALE_DEFAULTS, ...options.settings },
    // Uncapped rules: the ledger is never asked for a counter.
    caps: new CapLedger(),
    // No buyer keeps funds: none is limited by them.
    funds: FundsLedger.of([]),
    at: AT,
    screenReason: 'no_rule',
  })
}

function attempt(rule: ActiveRule, outcome: string | null, startedAt = AT): PastAttempt {
  return {
    id: `attempt-${rule.id}`,
    routingRuleId: rule.id,
    buyerId: rule.buyerId,
    kind: 'post',
    outcome,
    exclusive: true,
    startedAt,
    bidCents: null,
    bidId: null,
    bidExpiresAt: null,
  }
}

test.group('walkSale', () => {
  test('sells at once to the first webhook rule and stops', ({ assert }) => {
    const [first, second] = [activeRule(), activeRule()]
    const result = walk([first, second])
    assert.deepEqual(
      result.sold.map((sold) => sold.rule.id),
      [first.id]
    )
    assert.deepEqual(result.done, { unsold: null })
    assert.isNull(result.offer)
  })

  test('stops at the first rule whose buyer must be called, and offers it', ({ assert }) => {
    const http = activeRule({ destinationKind: 'http', destinationId: 'd1' })
    const result = walk([http, activeRule()])
    assert.equal(result.offer?.rule.id, http.id)
    assert.isNull(result.done)
    assert.lengthOf(result.sold, 0)
  })

  test('skips what this run offered already, and buyers that turned the lead down', ({
    assert,
  }) => {
    const runStartedAt = new Date(AT.getTime() - 1000)
    const tried = activeRule({ destinationKind: 'http' })
    const refusedBefore = activeRule({ destinationKind: 'http' })
    const next = activeRule()
    const result = walk([tried, refusedBefore, next], {
      runStartedAt,
      attempts: [
        attempt(tried, 'timeout'),
        attempt(refusedBefore, 'duplicate', new Date(AT.getTime() - 86_400_000)),
      ],
    })
    assert.deepEqual(
      result.sold.map((sold) => sold.rule.id),
      [next.id]
    )
  })

  test('a timeout in an earlier run is asked again; a rejection never is', ({ assert }) => {
    const timedOut = activeRule({ destinationKind: 'http' })
    const rejected = activeRule({ destinationKind: 'http' })
    const yesterday = new Date(AT.getTime() - 86_400_000)
    const result = walk([rejected, timedOut], {
      attempts: [attempt(timedOut, 'timeout', yesterday), attempt(rejected, 'rejected', yesterday)],
    })
    assert.equal(result.offer?.rule.id, timedOut.id)
  })

  test('every candidate turned down: unsold, rejected', ({ assert }) => {
    const only = activeRule({ destinationKind: 'http' })
    const result = walk([only], { attempts: [attempt(only, 'rejected')] })
    assert.deepEqual(result.done, { unsold: 'rejected' })
  })

  test('past the deadline nothing more is offered', ({ assert }) => {
    const result = walk([activeRule()], {
      runStartedAt: new Date(AT.getTime() - 31_000),
    })
    assert.deepEqual(result.done, { unsold: 'deadline' })
    assert.lengthOf(result.sold, 0)
  })

  test('shared sales worth more than the best exclusive one: sold to distinct buyers up to max_sales', ({
    assert,
  }) => {
    const exclusive = activeRule({ priceCents: 1000, priority: 9 })
    const a = activeRule({ priceCents: 700, exclusive: false })
    const sameBuyer = activeRule({ priceCents: 650, exclusive: false, buyerId: a.buyerId })
    const b = activeRule({ priceCents: 500, exclusive: false })
    const c = activeRule({ priceCents: 400, exclusive: false })
    const result = walk([exclusive, a, sameBuyer, b, c], { settings: { maxSales: 2 } })
    assert.deepEqual(
      result.sold.map((sold) => [sold.rule.id, sold.exclusive]),
      [
        [a.id, false],
        [b.id, false],
      ]
    )
  })

  test('an exclusive sale worth more wins, and with one sale per lead every sale is exclusive', ({
    assert,
  }) => {
    const exclusive = activeRule({ priceCents: 2000 })
    const shared = activeRule({ priceCents: 900, exclusive: false })
    assert.deepEqual(
      walk([shared, exclusive], { settings: { maxSales: 3 } }).sold.map((sold) => sold.rule.id),
      [exclusive.id]
    )
    assert.deepEqual(
      walk([shared, exclusive]).sold.map((sold) => [sold.rule.id, sold.exclusive]),
      [[shared.id, true]]
    )
  })

  test('a lead sold exclusively is done; one shared sale goes on with shared rules only', ({
    assert,
  }) => {
    const sold = activeRule({ exclusive: false, priceCents: 600 })
    const exclusive = activeRule({ priceCents: 5000 })
    const shared = activeRule({ exclusive: false, priceCents: 500 })
    const result = walk([exclusive, shared], {
      settings: { maxSales: 2 },
      attempts: [{ ...attempt(sold, 'accepted'), exclusive: false }],
    })
    assert.deepEqual(
      result.sold.map((each) => each.rule.id),
      [shared.id]
    )
    const soldAlone = walk([shared], {
      settings: { maxSales: 2 },
      attempts: [attempt(exclusive, 'accepted')],
    })
    assert.deepEqual(soldAlone.done, { unsold: null })
    assert.lengthOf(soldAlone.sold, 0)
  })
})
