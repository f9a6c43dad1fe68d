import { test } from '@japa/runner'
import { sampleLead } from '#services/intake/sample_lead'
import type { QualityRules } from '#services/quality/quality_rules'
import { NOW, evaluate } from '#tests/unit/quality/lead_builder'

const strict: QualityRules = {
  required_fields: ['contact.name', 'contact.phone', 'contact.email', 'provenance.source'],
  postal_code: { required: true, action: 'reject' },
  target_audience: [
    { field: 'attributes.age', op: 'between', value: [18, 99], action: 'reject' },
    { field: 'attributes.product', op: 'in', value: ['solar', 'heat pump'], action: 'reject' },
    { field: 'attributes.monthly_bill', op: 'gte', value: 80, action: 'flag' },
    { field: 'attributes.region', op: 'not_in', value: ['north'], action: 'reject' },
  ],
}

test.group('Intake / sample lead', () => {
  test("the publisher's own rules accept its sample lead, in each country it may be in", ({
    assert,
  }) => {
    for (const country of ['NL', 'BE', 'DE', 'GB', 'US']) {
      const lead = sampleLead({ slug: 'acme', country, qualityRules: strict }, { now: NOW })
      const result = evaluate(lead, strict, { defaultCountry: country })
      assert.equal(result.outcome, 'accepted', `${country}: ${JSON.stringify(result.reasons)}`)
      assert.equal(lead.contact.country, country)
    }
  })

  test('two samples differ in e-mail and phone, so a duplicate screen does not catch the second', ({
    assert,
  }) => {
    const publisher = { slug: 'acme', country: 'NL', qualityRules: {} }
    const [first, second] = [sampleLead(publisher), sampleLead(publisher)]
    assert.notEqual(first.contact.email, second.contact.email)
    assert.notEqual(first.contact.phone, second.contact.phone)
    assert.notProperty(first, 'attributes')
  })
})
