import type { QualityRules } from '#services/quality/quality_rules'
import type { EvaluationContext, LeadInput } from '#services/quality/types'
import { evaluateLead } from '#services/quality/evaluate_lead'

export const NOW = new Date('2026-06-01T12:00:00.000Z')

type LeadOverrides = {
  contact?: Partial<LeadInput['contact']>
  provenance?: LeadInput['provenance']
  consent?: LeadInput['consent'] | Partial<NonNullable<LeadInput['consent']>>
  attributes?: LeadInput['attributes']
}

/** A lead every default rule accepts; tests change one thing at a time. */
export function lead(overrides: LeadOverrides = {}): LeadInput {
  return {
    publisher: 'acme',
    contact: {
      name: 'Jan Jansen',
      email: 'jan@example.nl',
      phone: '06 12345678',
      ...overrides.contact,
    },
    provenance: overrides.provenance ?? {
      source: 'facebook',
      campaign: 'spring',
      landing_page: 'https://acme.example/solar',
    },
    consent:
      overrides.consent === null
        ? null
        : {
            given: true,
            text: 'I agree that Acme may call me about solar panels.',
            timestamp: '2026-06-01T11:58:00Z',
            ip: '203.0.113.9',
            ...overrides.consent,
          },
    attributes: overrides.attributes,
  }
}

export function evaluate(
  input: LeadInput,
  rules: QualityRules = {},
  context: Partial<EvaluationContext> = {}
) {
  return evaluateLead(input, {
    rules,
    defaultCountry: 'NL',
    now: NOW,
    consentMaxAgeDays: 30,
    duplicate: false,
    ...context,
  })
}

/** The reasons as `code@field:action`, compact enough to compare whole. */
export function reasonsOf(result: ReturnType<typeof evaluate>) {
  return result.reasons.map((reason) => `${reason.code}@${reason.field ?? ''}:${reason.action}`)
}
