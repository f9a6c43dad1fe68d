import { test } from '@japa/runner'
import type { QualityRules } from '#services/quality/quality_rules'
import { evaluateLead } from '#services/quality/evaluate_lead'
import intakeConfig from '#config/intake'
import { postingSpecBody } from '#openapi/posting_spec'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'

/** Rule sets the examples must satisfy, both by the spec's own schema and by the engine. */
const CASES: { name: string; country: string; rules: QualityRules }[] = [
  { name: 'no rules', country: 'NL', rules: {} },
  {
    name: 'another country in the audience',
    country: 'NL',
    rules: {
      required_fields: ['provenance.source', 'attributes.roof'],
      target_audience: [
        { field: 'contact.country', op: 'eq', value: 'BE', action: 'reject' },
        { field: 'attributes.product', op: 'not_in', value: ['other'], action: 'reject' },
        { field: 'attributes.income', op: 'gte', value: 2000, action: 'reject' },
        { field: 'attributes.debt', op: 'lte', value: 10, action: 'reject' },
        { field: 'provenance.campaign', op: 'prefix', value: 'spring', action: 'reject' },
      ],
    },
  },
  {
    name: 'a required postal code in a country without a sample',
    country: 'SE',
    rules: { postal_code: { required: true, action: 'reject' } },
  },
  {
    name: 'flag rules and duplicates',
    country: 'DE',
    rules: {
      phone: { action: 'flag' },
      duplicates: { window_days: 30, keys: ['contact.email'], action: 'flag' },
      target_audience: [
        { field: 'attributes.age', op: 'between', value: [30, 40], action: 'flag' },
      ],
    },
  },
]

test.group('Posting spec / examples', () => {
  for (const { name, country, rules } of CASES) {
    test(`${name}: the example is accepted by the spec and by the rules`, ({ assert }) => {
      const subject = {
        slug: 'acme-media',
        name: 'Acme',
        country,
        rules,
        consentMaxAgeDays: intakeConfig.consentMaxAgeDays,
      }
      const body = postingSpecBody(subject)
      const lead = (body.components.schemas as any).PublisherLead.examples[0]
      const check = schemaChecker(body).compile(pointerTo('components', 'schemas', 'PublisherLead'))
      assert.isTrue(check(lead), JSON.stringify(check.errors))
      const judge = (candidate: any) =>
        evaluateLead(candidate, {
          rules,
          defaultCountry: country,
          now: new Date(Date.parse(lead.consent.timestamp) + 60_000),
          consentMaxAgeDays: intakeConfig.consentMaxAgeDays,
          duplicate: false,
        })
      const verdict = judge(lead)
      assert.equal(verdict.outcome, 'accepted', JSON.stringify(verdict.reasons))
      // Whatever the spec refuses of the example's fields, the rules reject.
      for (const [group, fields] of Object.entries(lead)) {
        if (!fields || typeof fields !== 'object') continue
        for (const field of Object.keys(fields)) {
          const without = structuredClone(lead)
          delete without[group][field]
          if (!check(without)) {
            assert.equal(judge(without).outcome, 'rejected', `${group}.${field}`)
          }
        }
      }
      // Same rules, same document: the digest of a version depends on nothing else.
      assert.deepEqual(postingSpecBody(subject), body)
    })
  }
})
