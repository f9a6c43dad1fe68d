import { test } from '@japa/runner'
import { evaluate, lead, reasonsOf } from '#tests/unit/quality/lead_builder'

test.group('Quality rules / required fields', () => {
  test('each listed field that is absent or blank is missing_field and rejects', ({ assert }) => {
    const input = lead({
      contact: { name: '  ' },
      provenance: { source: 'facebook', campaign: null, landing_page: 'https://acme.example' },
      attributes: { age: 40 },
    })
    const result = evaluate(input, {
      required_fields: [
        'contact.name',
        'provenance.campaign',
        'attributes.age',
        'attributes.homeowner',
        'contact.email',
      ],
    })
    assert.equal(result.outcome, 'rejected')
    assert.deepEqual(reasonsOf(result), [
      'missing_field@contact.name:reject',
      'missing_field@provenance.campaign:reject',
      'missing_field@attributes.homeowner:reject',
    ])
    assert.include(result.reasons[0].message, 'contact.name')
  })

  test('false and 0 are values, not missing', ({ assert }) => {
    const result = evaluate(lead({ attributes: { homeowner: false, children: 0 } }), {
      required_fields: ['attributes.homeowner', 'attributes.children'],
    })
    assert.equal(result.outcome, 'accepted')
  })

  test("paths reach only own fields of the lead's groups", ({ assert }) => {
    const result = evaluate(lead(), {
      required_fields: ['contact.constructor', 'attributes.__proto__', 'publisher.x'],
    })
    assert.deepEqual(reasonsOf(result), [
      'missing_field@contact.constructor:reject',
      'missing_field@attributes.__proto__:reject',
      'missing_field@publisher.x:reject',
    ])
  })

  test('no required fields beyond the shape by default', ({ assert }) => {
    const result = evaluate(lead({ contact: { name: undefined }, provenance: null }))
    assert.equal(result.outcome, 'accepted')
  })
})
