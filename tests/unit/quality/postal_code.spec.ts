import { test } from '@japa/runner'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / postal code', () => {
  test('{country} postal code {code} is valid and reads {normalised}')
    .with([
      { country: 'NL', code: '1012ab', normalised: '1012 AB' },
      { country: 'NL', code: '1012 AB', normalised: '1012 AB' },
      { country: 'DE', code: '10115', normalised: '10115' },
      { country: 'GB', code: 'sw1a1aa', normalised: 'SW1A 1AA' },
      { country: 'GB', code: 'M1 1AE', normalised: 'M1 1AE' },
      { country: 'US', code: '90210', normalised: '90210' },
      { country: 'US', code: '90210-1234', normalised: '90210-1234' },
    ])
    .run(({ assert }, row) => {
      const result = evaluate(
        lead({ contact: { postal_code: row.code, country: row.country, phone: undefined } })
      )
      assert.equal(result.outcome, 'accepted')
      assert.equal(result.normalised.postal_code, row.normalised)
    })

  test('{country} postal code {code} is invalid_postal_code')
    .with([
      { country: 'NL', code: '101 AB' },
      { country: 'NL', code: 'ABCD 12' },
      { country: 'DE', code: '1011' },
      { country: 'DE', code: '101155' },
      { country: 'GB', code: 'XXX' },
      { country: 'GB', code: '12345' },
      { country: 'US', code: '9021' },
      { country: 'US', code: 'SW1A 1AA' },
    ])
    .run(({ assert }, row) => {
      const result = evaluate(
        lead({ contact: { postal_code: row.code, country: row.country, phone: undefined } })
      )
      assert.equal(result.outcome, 'rejected')
      assert.deepEqual(reasonsOf(result), ['invalid_postal_code@contact.postal_code:reject'])
      assert.include(result.reasons[0].message, row.country)
    })

  test("the country defaults to the publisher's", ({ assert }) => {
    const dutch = lead({ contact: { postal_code: '10115', phone: undefined } })
    assert.equal(evaluate(dutch, {}, { defaultCountry: 'DE' }).outcome, 'accepted')
    assert.equal(evaluate(dutch, {}, { defaultCountry: 'NL' }).outcome, 'rejected')
  })

  test('with action flag an invalid code flags', ({ assert }) => {
    const result = evaluate(lead({ contact: { postal_code: '9999' } }), {
      postal_code: { required: false, action: 'flag' },
    })
    assert.equal(result.outcome, 'flagged')
    assert.deepEqual(reasonsOf(result), ['invalid_postal_code@contact.postal_code:flag'])
  })

  test('a country the library does not know, or without postal codes, is unchecked, not invalid', ({
    assert,
  }) => {
    for (const country of ['AE', 'ZZ']) {
      const result = evaluate(
        lead({ contact: { postal_code: 'anything 1', country, phone: undefined } })
      )
      assert.equal(result.outcome, 'accepted', country)
      assert.deepEqual(result.reasons, [])
    }
  })

  test("required postal codes: missing_field with the rule's action; optional ones may be absent", ({
    assert,
  }) => {
    assert.equal(evaluate(lead()).outcome, 'accepted')
    const rejected = evaluate(lead(), { postal_code: { required: true, action: 'reject' } })
    assert.deepEqual(reasonsOf(rejected), ['missing_field@contact.postal_code:reject'])
    const flagged = evaluate(lead({ contact: { postal_code: ' ' } }), {
      postal_code: { required: true, action: 'flag' },
    })
    assert.equal(flagged.outcome, 'flagged')
    assert.deepEqual(reasonsOf(flagged), ['missing_field@contact.postal_code:flag'])
  })

  test('listed as required and required by its rule, it is reported once with the stricter action', ({
    assert,
  }) => {
    const result = evaluate(lead(), {
      required_fields: ['contact.postal_code'],
      postal_code: { required: true, action: 'flag' },
    })
    assert.deepEqual(reasonsOf(result), ['missing_field@contact.postal_code:reject'])
  })
})
