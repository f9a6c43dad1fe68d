import type { AttributeValue, LeadInput, Reason } from '#services/quality/types'

/** The lead's own contact fields a form may ask for; any other name is an attribute. */
export const CONTACT_FIELDS = ['name', 'email', 'phone', 'postal_code', 'country'] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]

/** How an attribute is asked for; contact fields have a fixed input each. */
export const ATTRIBUTE_TYPES = ['text', 'number', 'select', 'checkbox'] as const
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number]

export type FormField = {
  name: string
  label: string
  required: boolean
  /** Attributes only; contact fields ignore it. */
  type?: AttributeType
  /** The choices of a `select` attribute. */
  options?: string[]
}

/** Field names the consumer's browser could clash with: the page's own hidden inputs. */
export const RESERVED_FIELD_NAMES = ['consent', 'website', 'form_token', 'started'] as const

const INPUTS: Record<ContactField, { type: string; autocomplete: string; inputmode?: string }> = {
  name: { type: 'text', autocomplete: 'name' },
  email: { type: 'email', autocomplete: 'email', inputmode: 'email' },
  phone: { type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
  postal_code: { type: 'text', autocomplete: 'postal-code' },
  country: { type: 'text', autocomplete: 'country' },
}

export function isContactField(name: string): name is ContactField {
  return (CONTACT_FIELDS as readonly string[]).includes(name)
}

/** The lead field a form field fills, as quality reasons name it (`contact.email`, `attributes.age`). */
export function leadPathOf(name: string) {
  return isContactField(name) ? `contact.${name}` : `attributes.${name}`
}

/** What the hosted page renders for one field. */
export function inputOf(field: FormField) {
  if (isContactField(field.name)) return { kind: 'input' as const, ...INPUTS[field.name] }
  switch (field.type) {
    case 'select':
      return { kind: 'select' as const, options: field.options ?? [] }
    case 'checkbox':
      return { kind: 'checkbox' as const }
    case 'number':
      return { kind: 'input' as const, type: 'text', autocomplete: 'off', inputmode: 'decimal' }
    default:
      return { kind: 'input' as const, type: 'text', autocomplete: 'off' }
  }
}

/* eslint-disable-next-line no-control-regex */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

/**
 * A consumer's text as it may be stored: trimmed, at most `max` characters,
 * without control characters or lone surrogates (Postgres stores neither
 * faithfully); null when nothing is left.
 */
export function cleanText(value: unknown, max = 500) {
  if (typeof value !== 'string') return null
  const text = value.toWellFormed().replace(CONTROL_CHARACTERS, '').trim().slice(0, max)
  return text === '' ? null : text
}

export type FieldProblem = 'required' | 'invalid' | 'not_an_option' | 'not_a_number'

/**
 * What the consumer typed, as the lead's contact and attributes, and the
 * problems the form itself can name (a required field left empty, a choice
 * not offered). Values are trimmed; empty means absent.
 */
export function readFields(fields: FormField[], body: Record<string, unknown>) {
  const contact: LeadInput['contact'] = {}
  const attributes: Record<string, AttributeValue> = {}
  const problems: Record<string, FieldProblem> = {}
  for (const field of fields) {
    const text = cleanText(body[field.name]) ?? ''
    if (field.type === 'checkbox' && !isContactField(field.name)) {
      const checked = text === 'yes'
      if (field.required && !checked) problems[field.name] = 'required'
      attributes[field.name] = checked
      continue
    }
    if (text === '') {
      if (field.required) problems[field.name] = 'required'
      continue
    }
    if (isContactField(field.name)) {
      contact[field.name] = field.name === 'country' ? text.toUpperCase() : text
    } else if (field.type === 'select' && !(field.options ?? []).includes(text)) {
      problems[field.name] = 'not_an_option'
    } else if (field.type === 'number') {
      const number = Number(text.replace(',', '.'))
      if (Number.isFinite(number)) attributes[field.name] = number
      else problems[field.name] = 'not_a_number'
    } else {
      attributes[field.name] = text
    }
  }
  return { contact, attributes, problems }
}

/**
 * Quality reasons a consumer can put right on the form, as the field to
 * show them at: a bad phone, e-mail or postal code, a missing field, the
 * consent box. The rest (duplicate, outside the audience) is the
 * publisher's business and never shown.
 */
export function fixableProblems(fields: FormField[], reasons: Reason[]) {
  const problems: Record<string, FieldProblem> = {}
  const byPath = new Map(fields.map((field) => [leadPathOf(field.name), field.name]))
  for (const reason of reasons) {
    if (reason.code === 'missing_consent' || reason.code === 'invalid_consent') {
      problems.consent = 'required'
      continue
    }
    const name = reason.field ? byPath.get(reason.field) : undefined
    if (!name) continue
    if (reason.code === 'missing_field') problems[name] = 'required'
    if (['invalid_phone', 'invalid_email', 'invalid_postal_code'].includes(reason.code)) {
      problems[name] = 'invalid'
    }
  }
  return problems
}
