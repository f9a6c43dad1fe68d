import { test } from '@japa/runner'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / e-mail', () => {
  test('the address is trimmed and lower-cased', ({ assert }) => {
    const result = evaluate(lead({ contact: { email: '  Jan.Jansen@Example.NL ' } }))
    assert.equal(result.normalised.email, 'jan.jansen@example.nl')
    assert.equal(result.outcome, 'accepted')
  })

  test('an invalid address rejects by default', ({ assert }) => {
    for (const email of ['jan@', 'jan.example.nl', 'jan@example', 'jan @example.nl']) {
      const result = evaluate(lead({ contact: { email } }))
      assert.equal(result.outcome, 'rejected', email)
      assert.deepEqual(reasonsOf(result), ['invalid_email@contact.email:reject'])
      assert.isNotEmpty(result.reasons[0].message)
    }
  })

  test('an invalid address only flags with action flag', ({ assert }) => {
    const result = evaluate(lead({ contact: { email: 'jan@' } }), { email: { action: 'flag' } })
    assert.equal(result.outcome, 'flagged')
    assert.deepEqual(reasonsOf(result), ['invalid_email@contact.email:flag'])
  })

  test('an absent address is not invalid; required, it is missing', ({ assert }) => {
    assert.equal(evaluate(lead({ contact: { email: null } })).outcome, 'accepted')
    assert.isNull(evaluate(lead({ contact: { email: null } })).normalised.email)
    const required = evaluate(lead({ contact: { email: null } }), {
      required_fields: ['contact.email'],
    })
    assert.deepEqual(reasonsOf(required), ['missing_field@contact.email:reject'])
  })
})
