import type { AudienceCriterion, QualityRules } from '#services/quality/quality_rules'
import { effectiveRules } from '#services/quality/effective_rules'
import { OPERATORS } from '#services/quality/rules/audience_operators'
import { postalCodeStatus } from '#services/quality/postal_code'
import { audienceSentence, fieldInWords, rulesInWords } from '#services/quality/rules_in_words'
import type { Schema } from './helpers.js'

/**
 * A publisher's quality rules as JSON Schema over the lead body: what a lead must hold to be
 * accepted. The rules stay the engine's (app/services/quality); this only reads them. A lead that
 * misses one of these is not refused as malformed: it is stored as rejected with its reasons.
 */
export type PostingSubject = {
  slug: string
  country: string
  rules: QualityRules
  consentMaxAgeDays: number
}

/** Contact values the engine compares normalised (E.164, lower case…): no schema says that exactly. */
const NORMALISED = new Set(['contact.email', 'contact.phone', 'contact.postal_code'])

/** `{group: {key: leaf}}` with both levels required when `required`. */
function atPath(path: string, leaf: Schema, required: boolean): Schema {
  const [group, key] = path.split('.')
  return {
    type: 'object',
    ...(required ? { required: [group] } : {}),
    properties: {
      [group]: {
        type: 'object',
        ...(required ? { required: [key] } : {}),
        properties: { [key]: leaf },
      },
    },
  }
}

const bounds = (value: unknown) =>
  Array.isArray(value)
    ? { min: value[0] as number, max: value[1] as number }
    : (value as { min: number; max: number })

/** The values a criterion allows, as JSON Schema; none where the engine compares more loosely. */
function valueSchema(criterion: AudienceCriterion): Schema {
  if (NORMALISED.has(criterion.field)) return {}
  const { op, value } = criterion
  if (op === 'eq') return { const: value }
  if (op === 'in') return { enum: value as unknown[] }
  if (op === 'not_in') return { not: { enum: value as unknown[] } }
  if (op === 'gte') return { type: ['number', 'string'], minimum: value }
  if (op === 'lte') return { type: ['number', 'string'], maximum: value }
  if (op === 'between') {
    const { min, max } = bounds(value)
    return { type: ['number', 'string'], minimum: min, maximum: max }
  }
  return {}
}

/** A value the criterion holds for, for the examples. */
function satisfying(criterion: AudienceCriterion): unknown {
  const { op, value } = criterion
  if (op === 'in') return (value as unknown[])[0]
  if (op === 'between') return Math.round((bounds(value).min + bounds(value).max) / 2)
  if (op === 'not_in') {
    const taken = (value as unknown[]).map((item) => String(item).toLowerCase())
    return ['other', 'something_else'].find((candidate) => !taken.includes(candidate))
  }
  return value
}

/** Whether a lead without the field still passes: only a country, which defaults to the publisher's. */
function defaultPasses(criterion: AudienceCriterion, country: string) {
  return (
    criterion.field === 'contact.country' && OPERATORS[criterion.op]?.(country, criterion.value)
  )
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`)

const CONSENT: Schema = {
  type: 'object',
  required: ['consent'],
  properties: {
    consent: {
      type: 'object',
      required: ['given', 'text', 'timestamp', 'ip'],
      properties: { given: { const: true } },
    },
  },
}

/** The reject rules as `allOf` members, each described by its sentence; flag rules only in words. */
export function leadConstraints(subject: PostingSubject): Schema[] {
  const rules = effectiveRules(subject.rules, subject.consentMaxAgeDays)
  const members: Schema[] = [
    { type: 'object', properties: { publisher: { const: subject.slug } } },
    {
      ...CONSENT,
      description: `Valid consent: the applicant agreed, with the exact wording, the time (within the last ${rules.consentMaxAgeDays} days) and the applicant's IP address; otherwise \`missing_consent\` or \`invalid_consent\`.`,
    },
  ]
  const required = [...rules.requiredFields]
  if (rules.postalCode.required && rules.postalCode.action === 'reject') {
    required.push('contact.postal_code')
  }
  for (const path of [...new Set(required)].filter((field) => !field.startsWith('consent.'))) {
    members.push({
      ...atPath(path, {}, true),
      description: `Without ${article(fieldInWords(path))} the lead is rejected: \`missing_field\`.`,
    })
  }
  for (const criterion of rules.audience) {
    if ((criterion.action ?? 'reject') !== 'reject') continue
    members.push({
      ...atPath(
        criterion.field,
        valueSchema(criterion),
        !defaultPasses(criterion, subject.country)
      ),
      description: `${audienceSentence(criterion).text.replace(/\.$/, '')}: \`outside_target_audience\`.`,
    })
  }
  return members
}

/** The rules in the publisher's own words, reject and flag alike (the portal shows the same). */
export function rulesSentences(subject: PostingSubject) {
  return rulesInWords(subject.rules, { consentMaxAgeDays: subject.consentMaxAgeDays })
}

/** Postal codes the examples use, by country; elsewhere the first common form the country takes. */
const SAMPLE_POSTAL_CODES: Record<string, string> = {
  NL: '1012 AB',
  BE: '1000',
  DE: '10115',
  FR: '75001',
  GB: 'SW1A 1AA',
  US: '10001',
}
const COMMON_FORMS = ['10000', '1000', '100000', '12345', '123456', '1234', '001 00', '100-0001']

function samplePostalCode(country: string) {
  return (
    SAMPLE_POSTAL_CODES[country] ??
    COMMON_FORMS.find((code) => postalCodeStatus(code, country) === 'valid')
  )
}

/** A lead this publisher's rules accept, from the general example; the ping is its partial twin. */
export function examples(subject: PostingSubject, general: Record<string, any>) {
  const rules = effectiveRules(subject.rules, subject.consentMaxAgeDays)
  const lead = structuredClone(general)
  lead.publisher = subject.slug
  lead.contact.country = subject.country
  const put = (path: string, value: unknown) => {
    const [group, key] = path.split('.')
    lead[group] = { ...lead[group], [key]: value }
  }
  for (const criterion of rules.audience) {
    if (criterion.field === 'contact.country' && !defaultPasses(criterion, lead.contact.country)) {
      lead.contact.country = String(satisfying(criterion)).toUpperCase()
    } else if (!NORMALISED.has(criterion.field) && criterion.field !== 'contact.country') {
      put(criterion.field, satisfying(criterion))
    }
  }
  const postal = samplePostalCode(lead.contact.country)
  if (postal) lead.contact.postal_code = postal
  else delete lead.contact.postal_code
  for (const path of rules.requiredFields) {
    const [group, key] = path.split('.')
    if (lead[group]?.[key] === undefined) put(path, group === 'attributes' ? 'yes' : 'example')
  }
  const { name, email, phone, ...where } = lead.contact
  ;(void name, email, phone)
  const ping = {
    publisher: lead.publisher,
    provenance: lead.provenance,
    contact: where,
    attributes: lead.attributes,
  }
  return { lead, ping }
}
