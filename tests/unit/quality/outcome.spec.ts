import { test } from '@japa/runner'
import type { QualityRules } from '#services/quality/quality_rules'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / outcome and defaults', () => {
  test('the empty document accepts a clean lead and answers the full shape', ({ assert }) => {
    const result = evaluate(lead({ contact: { email: ' Jan@Example.NL', postal_code: '1012ab' } }))
    assert.deepEqual(result, {
      outcome: 'accepted',
      quality_check: { consent: 'valid', target_audience: 'within', duplicate: false },
      reasons: [],
      normalised: {
        email: 'jan@example.nl',
        phone: '+31612345678',
        country: 'NL',
        postal_code: '1012 AB',
        ip: '203.0.113.9',
      },
    })
  })

  test('the empty document rejects bad consent, e-mail, phone and a given bad postal code', ({
    assert,
  }) => {
    const result = evaluate(
      lead({ contact: { email: 'nope', phone: '1', postal_code: 'XX' }, consent: { given: false } })
    )
    assert.equal(result.outcome, 'rejected')
    assert.deepEqual(reasonsOf(result), [
      'missing_consent@consent.given:reject',
      'invalid_postal_code@contact.postal_code:reject',
      'invalid_email@contact.email:reject',
      'invalid_phone@contact.phone:reject',
    ])
  })

  test('duplicates are off by default, whatever the caller found', ({ assert }) => {
    const result = evaluate(lead(), {}, { duplicate: true })
    assert.equal(result.outcome, 'accepted')
    assert.isFalse(result.quality_check.duplicate)
  })

  test('a duplicate under a duplicates rule is reported with its action', ({ assert }) => {
    const rules = (action: 'reject' | 'flag'): QualityRules => ({
      duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action },
    })
    const rejected = evaluate(lead(), rules('reject'), { duplicate: true })
    assert.equal(rejected.outcome, 'rejected')
    assert.isTrue(rejected.quality_check.duplicate)
    assert.deepEqual(reasonsOf(rejected), ['duplicate@:reject'])
    assert.include(rejected.reasons[0].message, '30 days')

    const flagged = evaluate(lead(), rules('flag'), { duplicate: true })
    assert.equal(flagged.outcome, 'flagged')
    assert.deepEqual(reasonsOf(flagged), ['duplicate@:flag'])

    const fresh = evaluate(lead(), rules('reject'), { duplicate: false })
    assert.equal(fresh.outcome, 'accepted')
    assert.isFalse(fresh.quality_check.duplicate)
  })

  test('flags alone flag; one reject among flags rejects', ({ assert }) => {
    const rules: QualityRules = { phone: { action: 'flag' }, email: { action: 'flag' } }
    const flagged = evaluate(lead({ contact: { phone: '1', email: 'x' } }), rules)
    assert.equal(flagged.outcome, 'flagged')
    assert.lengthOf(flagged.reasons, 2)

    const rejected = evaluate(
      lead({ contact: { phone: '1', email: 'x', postal_code: 'XX' } }),
      rules
    )
    assert.equal(rejected.outcome, 'rejected')
    assert.deepEqual(reasonsOf(rejected), [
      'invalid_postal_code@contact.postal_code:reject',
      'invalid_email@contact.email:flag',
      'invalid_phone@contact.phone:flag',
    ])
  })

  test('every reason carries a human message', ({ assert }) => {
    const result = evaluate(
      lead({
        contact: { email: 'x', phone: '1', postal_code: 'XX', name: '' },
        consent: { ip: 'x' },
        attributes: { age: 3 },
      }),
      {
        required_fields: ['contact.name'],
        target_audience: [{ field: 'attributes.age', op: 'gte', value: 18, action: 'reject' }],
        duplicates: { window_days: 7, keys: ['contact.email'], action: 'reject' },
      },
      { duplicate: true }
    )
    assert.sameMembers(
      result.reasons.map((reason) => reason.code),
      [
        'invalid_consent',
        'missing_field',
        'invalid_postal_code',
        'invalid_email',
        'invalid_phone',
        'outside_target_audience',
        'duplicate',
      ]
    )
    for (const reason of result.reasons) assert.match(reason.message, /^\S.{10,}\.$/)
  })
})
