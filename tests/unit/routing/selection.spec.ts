import { test } from '@japa/runner'
import { normaliseLead } from '#services/quality/normalise'
import type { LeadInput } from '#services/quality/types'
import {
  criteriaHold,
  rankCandidates,
  screen,
  seededRandom,
  type RoutableLead,
} from '#services/routing/selection'
import { activeRule } from '#tests/unit/routing/active_rule'

const LABEL = '00000000-0000-7000-8000-00000000000a'
const PUBLISHER = '00000000-0000-7000-8000-00000000000b'
const OTHER = '00000000-0000-7000-8000-00000000000c'

const rule = activeRule

function lead(
  overrides: Partial<LeadInput> = {},
  scope = { labelId: LABEL as string | null }
): RoutableLead {
  const input: LeadInput = {
    publisher: 'p',
    contact: { name: 'Jan', email: 'Jan@Example.NL', phone: '06 12345678' },
    attributes: { age: 40, product: 'solar' },
    ...overrides,
  }
  return {
    publisherId: PUBLISHER,
    labelId: scope.labelId,
    input,
    normalised: normaliseLead(input, 'NL'),
  }
}

const NOW = new Date('2027-01-04T12:00:00Z')

test.group('Routing / eligibility', () => {
  test('label and publisher scope a rule; an empty list means any', ({ assert }) => {
    const anyone = rule()
    const ours = rule({ labelIds: [LABEL], publisherIds: [PUBLISHER] })
    const otherPublisher = rule({ publisherIds: [OTHER] })
    const otherLabel = rule({ labelIds: [OTHER] })
    const { eligible } = screen([anyone, ours, otherPublisher, otherLabel], lead(), NOW)
    assert.deepEqual(
      eligible.map((r) => r.id),
      [anyone.id, ours.id]
    )

    // A lead without a label never meets a rule that names labels.
    const unlabelled = screen([ours], lead({}, { labelId: null }), NOW)
    assert.deepEqual(unlabelled, { eligible: [], reason: 'no_rule' })
  })

  test('criteria use the target-audience operators over normalised contact values', ({
    assert,
  }) => {
    const holds = (criteria: any[], input: Partial<LeadInput> = {}) =>
      criteriaHold(criteria, lead(input))
    assert.isTrue(holds([{ field: 'attributes.age', op: 'between', value: [30, 50] }]))
    assert.isFalse(holds([{ field: 'attributes.age', op: 'gte', value: 50 }]))
    // The phone was given in national notation; the prefix reads E.164.
    assert.isTrue(holds([{ field: 'contact.phone', op: 'prefix', value: '+316' }]))
    // The country was not given; the publisher's default counts.
    assert.isTrue(holds([{ field: 'contact.country', op: 'eq', value: 'nl' }]))
    assert.isTrue(holds([{ field: 'contact.email', op: 'eq', value: 'jan@example.nl' }]))
    assert.isFalse(holds([{ field: 'attributes.product', op: 'not_in', value: ['solar'] }]))
    // A missing field fails its criterion, even not_in.
    assert.isFalse(holds([{ field: 'attributes.homeowner', op: 'not_in', value: [false] }]))
    // Every criterion must hold.
    assert.isFalse(
      holds([
        { field: 'attributes.age', op: 'gte', value: 18 },
        { field: 'attributes.product', op: 'eq', value: 'windows' },
      ])
    )
  })

  test('an unsold lead says how far the best rule got', ({ assert }) => {
    const closed = { timezone: 'UTC', windows: [{ days: ['sun'], from: '00:00', to: '01:00' }] }
    const tooOld = [{ field: 'attributes.age', op: 'gte' as const, value: 60 }]
    assert.equal(screen([], lead(), NOW).reason, 'no_rule')
    assert.equal(screen([rule({ publisherIds: [OTHER] })], lead(), NOW).reason, 'no_rule')
    assert.equal(screen([rule({ criteria: tooOld })], lead(), NOW).reason, 'criteria')
    assert.equal(
      screen([rule({ criteria: tooOld }), rule({ schedule: closed })], lead(), NOW).reason,
      'outside_schedule'
    )
    const open = screen([rule({ schedule: closed }), rule()], lead(), NOW)
    assert.lengthOf(open.eligible, 1)
    assert.equal(open.reason, 'cap_reached', 'what is left to fail once a rule is eligible')
  })
})

test.group('Routing / priority and weight', () => {
  test('higher priority always goes first', ({ assert }) => {
    const low = rule({ priority: 1, weight: 1000 })
    const high = rule({ priority: 5, weight: 1 })
    const negative = rule({ priority: -3, weight: 1000 })
    const random = seededRandom(1)
    for (let i = 0; i < 200; i++) {
      assert.deepEqual(
        rankCandidates([negative, low, high], random).map((r) => r.id),
        [high.id, low.id, negative.id]
      )
    }
  })

  test('among equals, each rule comes first in proportion to its weight (fixed seed)', ({
    assert,
  }) => {
    const rules = [rule({ weight: 1 }), rule({ weight: 2 }), rule({ weight: 7 })]
    const random = seededRandom(20260401)
    const firsts = new Map(rules.map((r) => [r.id, 0]))
    const draws = 20_000
    for (let i = 0; i < draws; i++) {
      const [first] = rankCandidates(rules, random)
      firsts.set(first.id, firsts.get(first.id)! + 1)
    }
    const shares = rules.map((r) => firsts.get(r.id)! / draws)
    // Expected 0.1, 0.2, 0.7; three standard errors at n = 20 000 is under 0.01.
    assert.closeTo(shares[0], 0.1, 0.01)
    assert.closeTo(shares[1], 0.2, 0.01)
    assert.closeTo(shares[2], 0.7, 0.01)
  })

  test('the runner-up among equals also follows the weights', ({ assert }) => {
    // With the heaviest rule capped out, the lead goes on to the next in line.
    const rules = [rule({ weight: 1 }), rule({ weight: 3 }), rule({ weight: 6 })]
    const random = seededRandom(99)
    let lightBeforeMiddle = 0
    const draws = 20_000
    for (let i = 0; i < draws; i++) {
      const order = rankCandidates(rules, random).map((r) => r.id)
      if (order.indexOf(rules[0].id) < order.indexOf(rules[1].id)) lightBeforeMiddle++
    }
    // Between weights 1 and 3 alone, the light one leads a quarter of the time.
    assert.closeTo(lightBeforeMiddle / draws, 0.25, 0.012)
  })

  test('a seed replays the same choices; different seeds differ', ({ assert }) => {
    const sample = (seed: number) => {
      const random = seededRandom(seed)
      return Array.from({ length: 20 }, () => random())
    }
    assert.deepEqual(sample(7), sample(7))
    assert.notDeepEqual(sample(7), sample(8))
    assert.isTrue(sample(123).every((value) => value >= 0 && value < 1))
  })
})
