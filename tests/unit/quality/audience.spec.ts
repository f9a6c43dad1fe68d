import { test } from '@japa/runner'
import type { AudienceCriterion } from '#services/quality/quality_rules'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

function judge(
  criterion: AudienceCriterion,
  attributes: Record<string, string | number | boolean> = {},
  contact = {}
) {
  return evaluate(lead({ attributes, contact }), { target_audience: [criterion] })
}

test.group('Quality rules / target audience', () => {
  test('between is inclusive and reads numeric strings', ({ assert }) => {
    const rule: AudienceCriterion = {
      field: 'attributes.age',
      op: 'between',
      value: [18, 65],
      action: 'reject',
    }
    for (const age of [18, 40, 65, '40'])
      assert.equal(judge(rule, { age }).quality_check.target_audience, 'within', String(age))
    for (const age of [17, 66, 'forty', true]) {
      const result = judge(rule, { age })
      assert.equal(result.quality_check.target_audience, 'outside', String(age))
      assert.deepEqual(reasonsOf(result), ['outside_target_audience@attributes.age:reject'])
    }
    assert.include(judge(rule, { age: 70 }).reasons[0].message, 'between 18 and 65')
  })

  test('in and not_in compare without case and across strings and numbers', ({ assert }) => {
    const within: AudienceCriterion = {
      field: 'attributes.product',
      op: 'in',
      value: ['solar', 'heat_pump'],
    }
    assert.equal(judge(within, { product: 'Solar' }).outcome, 'accepted')
    assert.deepEqual(reasonsOf(judge(within, { product: 'windows' })), [
      'outside_target_audience@attributes.product:reject',
    ])

    const regions: AudienceCriterion = {
      field: 'attributes.region',
      op: 'not_in',
      value: [1, 2],
      action: 'flag',
    }
    assert.equal(judge(regions, { region: '3' }).outcome, 'accepted')
    const excluded = judge(regions, { region: '2' })
    assert.equal(excluded.outcome, 'flagged')
    assert.deepEqual(reasonsOf(excluded), ['outside_target_audience@attributes.region:flag'])
  })

  test('eq matches booleans, numbers and strings', ({ assert }) => {
    const owner: AudienceCriterion = { field: 'attributes.homeowner', op: 'eq', value: true }
    assert.equal(judge(owner, { homeowner: true }).outcome, 'accepted')
    assert.equal(judge(owner, { homeowner: 'true' }).outcome, 'accepted')
    assert.equal(judge(owner, { homeowner: false }).outcome, 'rejected')
    assert.equal(
      judge({ field: 'provenance.source', op: 'eq', value: 'FACEBOOK' }).outcome,
      'accepted'
    )
  })

  test('gte and lte need numbers', ({ assert }) => {
    const income: AudienceCriterion = { field: 'attributes.income', op: 'gte', value: 30000 }
    assert.equal(judge(income, { income: 30000 }).outcome, 'accepted')
    assert.equal(judge(income, { income: 29999 }).outcome, 'rejected')
    const size: AudienceCriterion = {
      field: 'attributes.household',
      op: 'lte',
      value: 4,
      action: 'flag',
    }
    assert.equal(judge(size, { household: 4 }).outcome, 'accepted')
    assert.equal(judge(size, { household: 5 }).outcome, 'flagged')
    assert.equal(judge(size, { household: 'many' }).outcome, 'flagged')
  })

  test('prefix reads normalised contact values: postal codes and E.164 phones', ({ assert }) => {
    const area: AudienceCriterion = { field: 'contact.postal_code', op: 'prefix', value: '10' }
    assert.equal(judge(area, {}, { postal_code: '1012ab' }).outcome, 'accepted')
    assert.equal(judge(area, {}, { postal_code: '3511 AB' }).outcome, 'rejected')
    assert.equal(judge({ field: 'contact.phone', op: 'prefix', value: '+316' }).outcome, 'accepted')
    assert.equal(
      judge({ field: 'contact.phone', op: 'prefix', value: '+3120' }).outcome,
      'rejected'
    )
  })

  test('the defaulted country is what contact.country compares', ({ assert }) => {
    const dutch: AudienceCriterion = { field: 'contact.country', op: 'eq', value: 'NL' }
    assert.equal(judge(dutch).outcome, 'accepted')
    assert.equal(
      evaluate(
        lead({ contact: { phone: undefined } }),
        { target_audience: [dutch] },
        { defaultCountry: 'DE' }
      ).outcome,
      'rejected'
    )
  })

  test('a missing field fails every operator, not_in included', ({ assert }) => {
    for (const criterion of [
      { field: 'attributes.age', op: 'between', value: [18, 65] },
      { field: 'attributes.age', op: 'not_in', value: [12] },
      { field: 'attributes.age', op: 'lte', value: 99 },
      { field: 'contact.postal_code', op: 'prefix', value: '1' },
    ] as AudienceCriterion[]) {
      const result = judge(criterion)
      assert.equal(result.quality_check.target_audience, 'outside', criterion.op)
      assert.include(result.reasons[0].message, 'missing')
    }
  })

  test('a malformed or unknown criterion fails instead of throwing', ({ assert }) => {
    assert.equal(
      judge({ field: 'attributes.age', op: 'between', value: 'young' }, { age: 30 }).outcome,
      'rejected'
    )
    assert.equal(
      judge({ field: 'attributes.age', op: 'in', value: 30 }, { age: 30 }).outcome,
      'rejected'
    )
    assert.equal(
      judge({ field: 'attributes.age', op: 'near' as any, value: 30 }, { age: 30 }).outcome,
      'rejected'
    )
  })

  test('every failed criterion is reported, each with its own action', ({ assert }) => {
    const result = evaluate(lead({ attributes: { age: 16, product: 'windows' } }), {
      target_audience: [
        { field: 'attributes.age', op: 'gte', value: 18, action: 'flag' },
        { field: 'attributes.product', op: 'eq', value: 'solar', action: 'reject' },
        { field: 'attributes.age', op: 'lte', value: 99, action: 'reject' },
      ],
    })
    assert.equal(result.outcome, 'rejected')
    assert.deepEqual(reasonsOf(result), [
      'outside_target_audience@attributes.age:flag',
      'outside_target_audience@attributes.product:reject',
    ])
  })
})
