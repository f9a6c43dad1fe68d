import { LEAD_FIELD_PATHS, isLeadFieldPath } from '#services/quality/quality_rules'

/**
 * The columns of an upload and the lead fields they fill: default names
 * (`e-mail`, `phone_number`, `zip`, `utm_source`…), unknown columns as
 * attributes when their name can be one, and the caller's own `mapping`
 * over both.
 */

/** Every lead field a column may fill, besides `attributes.<name>`: the ones quality rules name. */
export const LEAD_FIELDS = LEAD_FIELD_PATHS
export type LeadField = (typeof LEAD_FIELDS)[number]

export const ATTRIBUTE_NAME = /^[a-z][a-z0-9_]{0,63}$/
export const MAX_ATTRIBUTES = 50

/** Header names (normalised: lower case, `_` for spaces and dashes) and the field each fills. */
const ALIASES: Record<string, LeadField> = {
  name: 'contact.name',
  full_name: 'contact.name',
  fullname: 'contact.name',
  contact_name: 'contact.name',
  email: 'contact.email',
  e_mail: 'contact.email',
  email_address: 'contact.email',
  mail: 'contact.email',
  phone: 'contact.phone',
  phone_number: 'contact.phone',
  phonenumber: 'contact.phone',
  telephone: 'contact.phone',
  tel: 'contact.phone',
  mobile: 'contact.phone',
  postal_code: 'contact.postal_code',
  postcode: 'contact.postal_code',
  post_code: 'contact.postal_code',
  zip: 'contact.postal_code',
  zip_code: 'contact.postal_code',
  zipcode: 'contact.postal_code',
  country: 'contact.country',
  country_code: 'contact.country',
  source: 'provenance.source',
  utm_source: 'provenance.source',
  campaign: 'provenance.campaign',
  utm_campaign: 'provenance.campaign',
  landing_page: 'provenance.landing_page',
  landing_page_url: 'provenance.landing_page',
  page_url: 'provenance.landing_page',
  consent: 'consent.given',
  consent_given: 'consent.given',
  consent_text: 'consent.text',
  consent_wording: 'consent.text',
  consent_timestamp: 'consent.timestamp',
  consent_time: 'consent.timestamp',
  consent_at: 'consent.timestamp',
  consented_at: 'consent.timestamp',
  consent_ip: 'consent.ip',
  ip: 'consent.ip',
  ip_address: 'consent.ip',
}

/** Columns read but never mapped: the upload's publisher is the one the lead is for. */
const IGNORED = new Set(['publisher'])

export type UnmappedColumn = { column: string; reason: string }

export type ColumnPlan = {
  /** The field each column fills, by column position; null when it fills none. */
  targets: (LeadField | `attributes.${string}` | null)[]
  /** Column name → field, as shown to the caller (columns that fill nothing are left out). */
  mapping: Record<string, string>
  unmapped: UnmappedColumn[]
}

export function normaliseHeader(name: string) {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s\-.]+/g, '_')
}

/** Whether `path` is a field a column may be mapped to. */
export const isMappableField = isLeadFieldPath

/** The field a column fills when the caller's mapping says nothing about it. */
function defaultTarget(column: string): ColumnPlan['targets'][number] | UnmappedColumn {
  if (isMappableField(column.trim())) return column.trim() as LeadField
  const normalised = normaliseHeader(column)
  if (IGNORED.has(normalised)) {
    return { column, reason: 'The upload is for its own publisher; this column is not read.' }
  }
  const alias = ALIASES[normalised]
  if (alias) return alias
  const attribute = normalised.startsWith('attributes_')
    ? normalised.slice('attributes_'.length)
    : normalised
  if (ATTRIBUTE_NAME.test(attribute)) return `attributes.${attribute}`
  return {
    column,
    reason:
      'Not a lead field, and not usable as an attribute name (lower-case letters, digits and underscores); map it with `mapping`.',
  }
}

/**
 * Which field each column fills: the caller's mapping first (a column
 * mapped to null is left out), then the default names. Several columns may
 * fill one field (JSON Lines written flat on some lines and nested on
 * others): the first of them with a value in a row gives it.
 */
export function planColumns(
  columns: string[],
  requested: Record<string, string | null> = {}
): ColumnPlan {
  const plan: ColumnPlan = { targets: [], mapping: {}, unmapped: [] }
  const attributes = new Set<string>()
  for (const column of columns) {
    const chosen = Object.hasOwn(requested, column) ? requested[column] : undefined
    const target =
      chosen === null
        ? { column, reason: 'Left out by the mapping.' }
        : chosen !== undefined
          ? (chosen as LeadField)
          : defaultTarget(column)
    if (target === null || typeof target === 'object') {
      plan.targets.push(null)
      if (target) plan.unmapped.push(target)
      continue
    }
    if (target.startsWith('attributes.') && !attributes.has(target)) {
      if (attributes.size >= MAX_ATTRIBUTES) {
        plan.targets.push(null)
        plan.unmapped.push({ column, reason: `A lead holds at most ${MAX_ATTRIBUTES} attributes.` })
        continue
      }
      attributes.add(target)
    }
    plan.targets.push(target)
    plan.mapping[column] = target
  }
  return plan
}

/**
 * What is wrong with a requested mapping for these columns: a column the
 * file does not have, a field no column can fill, two columns for one field.
 */
export function mappingErrors(columns: string[], requested: Record<string, string | null>) {
  const errors: { field: string; code: string; message: string }[] = []
  const known = new Set(columns)
  const targets = new Map<string, string>()
  for (const [column, target] of Object.entries(requested)) {
    const field = `mapping.${column}`
    if (!known.has(column)) {
      errors.push({
        field,
        code: 'unknown_column',
        message: `The file has no column "${column}"; its columns are listed in \`columns\`.`,
      })
    } else if (target !== null && !isMappableField(target)) {
      errors.push({
        field,
        code: 'unknown_field',
        message: `"${target}" is not a lead field: use one of ${LEAD_FIELDS.join(', ')} or attributes.<name>.`,
      })
    } else if (target !== null && targets.has(target)) {
      errors.push({
        field,
        code: 'field_taken',
        message: `Column "${targets.get(target)}" is already mapped to "${target}".`,
      })
    }
    if (target !== null) targets.set(target, column)
  }
  return errors
}
