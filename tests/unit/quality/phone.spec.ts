import { test } from '@japa/runner'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / phone', () => {
  test('{country} number {phone} becomes {e164}')
    .with([
      { country: 'NL', phone: '06 12345678', e164: '+31612345678' },
      { country: 'NL', phone: '020-1234567', e164: '+31201234567' },
      { country: 'DE', phone: '030 1234567', e164: '+49301234567' },
      { country: 'DE', phone: '0151 23456789', e164: '+4915123456789' },
      { country: 'GB', phone: '07400 123456', e164: '+447400123456' },
      { country: 'GB', phone: '020 7946 0018', e164: '+442079460018' },
      { country: 'US', phone: '(212) 555-0123', e164: '+12125550123' },
      { country: 'US', phone: '415.555.2671', e164: '+14155552671' },
    ])
    .run(({ assert }, row) => {
      const result = evaluate(lead({ contact: { phone: row.phone, country: row.country } }))
      assert.equal(result.normalised.phone, row.e164)
      assert.equal(result.normalised.country, row.country)
      assert.equal(result.outcome, 'accepted')
    })

  test("without a contact country the publisher's default reads the number", ({ assert }) => {
    assert.equal(
      evaluate(lead({ contact: { phone: '030 1234567' } }), {}, { defaultCountry: 'DE' }).normalised
        .phone,
      '+49301234567'
    )
    assert.equal(
      evaluate(lead({ contact: { phone: '030 1234567' } }), {}, { defaultCountry: 'NL' }).normalised
        .phone,
      '+31301234567'
    )
  })

  test('an international number keeps its own country whatever the default', ({ assert }) => {
    const result = evaluate(lead({ contact: { phone: '+1 212 555 0123', country: 'NL' } }))
    assert.equal(result.normalised.phone, '+12125550123')
    assert.equal(result.outcome, 'accepted')
  })

  test('an invalid number rejects by default and is not normalised', ({ assert }) => {
    for (const phone of ['0612', '12345', 'call me', '+31 6 1234']) {
      const result = evaluate(lead({ contact: { phone } }))
      assert.equal(result.outcome, 'rejected', phone)
      assert.deepEqual(reasonsOf(result), ['invalid_phone@contact.phone:reject'])
      assert.isNull(result.normalised.phone)
    }
  })

  test('an invalid number only flags with action flag', ({ assert }) => {
    const result = evaluate(lead({ contact: { phone: '0612' } }), { phone: { action: 'flag' } })
    assert.equal(result.outcome, 'flagged')
    assert.deepEqual(reasonsOf(result), ['invalid_phone@contact.phone:flag'])
  })

  test("an absent phone is the required-fields rule's business, not invalid_phone", ({
    assert,
  }) => {
    assert.equal(evaluate(lead({ contact: { phone: undefined } })).outcome, 'accepted')
    const required = evaluate(lead({ contact: { phone: '' } }), {
      required_fields: ['contact.phone'],
    })
    assert.deepEqual(reasonsOf(required), ['missing_field@contact.phone:reject'])
  })
})
