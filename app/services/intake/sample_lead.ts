import {
  getExampleNumber,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max'
import examples from 'libphonenumber-js/mobile/examples'
import type { AudienceCriterion, QualityRules } from '#services/quality/quality_rules'
import type { AttributeValue, LeadInput } from '#services/quality/types'
import { asNumber } from '#services/quality/rules/audience_operators'

/**
 * A postal code that exists, per country: the sample must pass a publisher's
 * postal-code rule without guessing. Countries not listed send none.
 */
const SAMPLE_POSTAL_CODES: Record<string, string> = {
  NL: '1012 AB',
  BE: '1000',
  DE: '10115',
  FR: '75001',
  GB: 'SW1A 1AA',
  US: '10001',
  ES: '28001',
  IT: '00184',
  AT: '1010',
  CH: '8001',
  DK: '1050',
  PL: '00-001',
}

/** A mobile number valid for the country, different each time so a duplicate screen does not catch it. */
function samplePhone(country: string, random: () => number) {
  let example
  try {
    example = getExampleNumber(country as CountryCode, examples)
  } catch {
    example = undefined
  }
  if (!example) return undefined
  const national = example.nationalNumber
  for (let attempt = 0; attempt < 20; attempt++) {
    const tail = String(Math.floor(random() * 10_000)).padStart(4, '0')
    const candidate = `+${example.countryCallingCode}${national.slice(0, -4)}${tail}`
    if (parsePhoneNumberFromString(candidate)?.isValid()) return candidate
  }
  return example.number
}

/** A value the criterion accepts, for custom fields (attributes) the sample has no other source for. */
function satisfying(criterion: AudienceCriterion): AttributeValue | undefined {
  const value = criterion.value
  const first = Array.isArray(value) ? value[0] : value
  switch (criterion.op) {
    case 'between': {
      const low = Array.isArray(value)
        ? asNumber(value[0])
        : asNumber((value as Record<string, unknown> | null)?.min)
      return low ?? undefined
    }
    case 'in':
    case 'eq':
      return typeof first === 'string' || typeof first === 'number' || typeof first === 'boolean'
        ? first
        : undefined
    case 'gte':
    case 'lte':
      return asNumber(value) ?? undefined
    case 'prefix':
      return typeof first === 'string' || typeof first === 'number' ? `${first}1` : undefined
    case 'not_in':
      return 'sample'
  }
}

/**
 * A realistic lead for a publisher to try its integration with in the
 * sandbox: consent given now, a valid phone and e-mail for its country,
 * and custom fields that meet its target audience where the rules say how.
 * The portal shows it as a curl command and sends it as the test lead.
 */
export function sampleLead(
  publisher: { slug: string; country: string; qualityRules: QualityRules | null },
  options: { now?: Date; random?: () => number } = {}
): LeadInput & { contact: Record<string, string>; attributes?: Record<string, AttributeValue> } {
  const random = options.random ?? Math.random
  const now = options.now ?? new Date()
  const country = publisher.country
  const n = String(Math.floor(random() * 1_000_000)).padStart(6, '0')
  const attributes: Record<string, AttributeValue> = {}
  for (const criterion of publisher.qualityRules?.target_audience ?? []) {
    const [group, key] = criterion.field.split('.')
    if (group !== 'attributes' || !key || key in attributes) continue
    const value = satisfying(criterion)
    if (value !== undefined) attributes[key] = value
  }
  const phone = samplePhone(country, random)
  const postalCode = SAMPLE_POSTAL_CODES[country]
  return {
    publisher: publisher.slug,
    contact: {
      name: 'Sam Sample',
      email: `sam.sample.${n}@example.com`,
      ...(phone ? { phone } : {}),
      ...(postalCode ? { postal_code: postalCode } : {}),
      country,
    },
    provenance: {
      source: 'sandbox-test',
      campaign: 'onboarding',
      landing_page: 'https://www.example.com/offer',
    },
    consent: {
      given: true,
      text: 'I agree to be contacted about this offer by phone and e-mail.',
      timestamp: new Date(now.getTime() - 60_000).toISOString(),
      ip: '203.0.113.10',
    },
    ...(Object.keys(attributes).length ? { attributes } : {}),
  }
}
