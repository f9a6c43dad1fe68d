import { test } from '@japa/runner'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / consent', () => {
  test('complete, recent consent is valid', ({ assert }) => {
    const result = evaluate(lead())
    assert.equal(result.quality_check.consent, 'valid')
    assert.equal(result.outcome, 'accepted')
    assert.deepEqual(result.reasons, [])
  })

  test('consent not given, or absent, is missing_consent and rejects', ({ assert }) => {
    for (const input of [
      lead({ consent: { given: false } }),
      lead({ consent: null }),
      lead({ consent: { given: null } }),
    ]) {
      const result = evaluate(input)
      assert.equal(result.quality_check.consent, 'missing')
      assert.equal(result.outcome, 'rejected')
      assert.deepEqual(reasonsOf(result), ['missing_consent@consent.given:reject'])
      assert.isNotEmpty(result.reasons[0].message)
    }
  })

  test('consent with action flag in the document still rejects', ({ assert }) => {
    const rules = { consent: { required: true as const, action: 'flag' as const } }
    const missing = evaluate(lead({ consent: { given: false } }), rules)
    assert.equal(missing.outcome, 'rejected')
    assert.deepEqual(reasonsOf(missing), ['missing_consent@consent.given:reject'])

    const invalid = evaluate(lead({ consent: { text: '' } }), rules)
    assert.equal(invalid.outcome, 'rejected')
    assert.deepEqual(reasonsOf(invalid), ['invalid_consent@consent.text:reject'])
  })

  test('empty wording is invalid_consent', ({ assert }) => {
    const result = evaluate(lead({ consent: { text: '   ' } }))
    assert.equal(result.quality_check.consent, 'invalid')
    assert.deepEqual(reasonsOf(result), ['invalid_consent@consent.text:reject'])
  })

  test('a timestamp more than five minutes ahead is invalid; within the skew it is fine', ({
    assert,
  }) => {
    assert.equal(
      evaluate(lead({ consent: { timestamp: '2026-06-01T12:04:59Z' } })).quality_check.consent,
      'valid'
    )
    const ahead = evaluate(lead({ consent: { timestamp: '2026-06-01T12:05:01Z' } }))
    assert.equal(ahead.quality_check.consent, 'invalid')
    assert.deepEqual(reasonsOf(ahead), ['invalid_consent@consent.timestamp:reject'])
    assert.include(ahead.reasons[0].message, 'future')
  })

  test('a timestamp older than the maximum age is invalid; the document may set its own age', ({
    assert,
  }) => {
    const old = lead({ consent: { timestamp: '2026-04-01T12:00:00Z' } })
    const tooOld = evaluate(old)
    assert.deepEqual(reasonsOf(tooOld), ['invalid_consent@consent.timestamp:reject'])
    assert.include(tooOld.reasons[0].message, '30 days')

    const lenient = evaluate(old, {
      consent: { required: true, action: 'reject', max_age_days: 90 },
    })
    assert.equal(lenient.quality_check.consent, 'valid')
    assert.equal(evaluate(old, {}, { consentMaxAgeDays: 365 }).outcome, 'accepted')
  })

  test('an unreadable timestamp is invalid; a Date from the validator is read as is', ({
    assert,
  }) => {
    assert.deepEqual(reasonsOf(evaluate(lead({ consent: { timestamp: 'yesterday' } }))), [
      'invalid_consent@consent.timestamp:reject',
    ])
    assert.deepEqual(reasonsOf(evaluate(lead({ consent: { timestamp: null } }))), [
      'invalid_consent@consent.timestamp:reject',
    ])
    assert.equal(
      evaluate(lead({ consent: { timestamp: new Date('2026-06-01T11:00:00Z') } })).outcome,
      'accepted'
    )
  })

  test('the IP must be a full IPv4 or IPv6 address', ({ assert }) => {
    for (const ip of ['203.0.113.x', '203.0.113', '999.1.1.1', '0x7f.1', '', 'localhost']) {
      const result = evaluate(lead({ consent: { ip } }))
      assert.deepEqual(reasonsOf(result), ['invalid_consent@consent.ip:reject'], ip)
    }
    for (const ip of ['203.0.113.9', '2001:db8::1', '::ffff:203.0.113.9']) {
      assert.equal(evaluate(lead({ consent: { ip } })).quality_check.consent, 'valid', ip)
    }
  })

  test('every defect is reported at once', ({ assert }) => {
    const result = evaluate(
      lead({ consent: { text: '', timestamp: '2027-01-01T00:00:00Z', ip: 'nope' } })
    )
    assert.deepEqual(reasonsOf(result), [
      'invalid_consent@consent.text:reject',
      'invalid_consent@consent.timestamp:reject',
      'invalid_consent@consent.ip:reject',
    ])
  })

  test('the IP is normalised for commitments', ({ assert }) => {
    assert.equal(
      evaluate(lead({ consent: { ip: '::ffff:203.0.113.9' } })).normalised.ip,
      '203.0.113.9'
    )
    assert.equal(
      evaluate(lead({ consent: { ip: '2001:DB8:0:0::1' } })).normalised.ip,
      '2001:db8::1'
    )
  })
})
