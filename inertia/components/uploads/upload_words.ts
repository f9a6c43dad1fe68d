import type { Data } from '@generated/data'

/** An upload's status in words, with what it means now. */
export const STATUS_WORDS: Record<Data.Upload['status'], string> = {
  validating: 'Checking rows',
  validated: 'Ready to accept',
  accepting: 'Creating leads',
  accepted: 'Accepted',
}

/** The tag's colour for each status. */
export const STATUS_SEVERITY: Record<Data.Upload['status'], 'info' | 'warn' | 'success'> = {
  validating: 'info',
  validated: 'warn',
  accepting: 'info',
  accepted: 'success',
}

/** A row's outcome in words: "accepted" is a row that would become an accepted lead. */
export const OUTCOME_WORDS: Record<Data.UploadRow['outcome'], string> = {
  accepted: 'Valid',
  flagged: 'Flagged',
  rejected: 'Rejected',
  pending: 'Not checked yet',
}

export const OUTCOME_SEVERITY: Record<
  Data.UploadRow['outcome'],
  'success' | 'warn' | 'danger' | 'secondary'
> = {
  accepted: 'success',
  flagged: 'warn',
  rejected: 'danger',
  pending: 'secondary',
}

/** What the file itself got wrong, beside the quality rules' reasons (lead_words.ts). */
export const ROW_REASON_WORDS: Record<string, string> = {
  malformed_row: 'The line does not fit the header',
  invalid_value: 'A value no lead field can take',
}

const FIELD_WORDS: Record<string, string> = {
  'contact.name': 'Name',
  'contact.email': 'E-mail address',
  'contact.phone': 'Phone number',
  'contact.postal_code': 'Postal code',
  'contact.country': 'Country',
  'provenance.source': 'Source (utm_source)',
  'provenance.campaign': 'Campaign (utm_campaign)',
  'provenance.landing_page': 'Landing page',
  'consent.given': 'Consent given',
  'consent.text': 'Consent wording',
  'consent.timestamp': 'Consent time',
  'consent.ip': 'Consent IP address',
}

/** A lead field in words: "E-mail address", or "Attribute monthly_bill". */
export function fieldWords(path: string) {
  if (FIELD_WORDS[path]) return FIELD_WORDS[path]
  return path.startsWith('attributes.') ? `Attribute ${path.slice('attributes.'.length)}` : path
}

/** The attribute name a column could become: "Monthly bill (€)" → "monthly_bill". */
export function attributeNameOf(column: string) {
  const name = column
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64)
  if (!name) return null
  return /^[a-z]/.test(name) ? name : `col_${name}`.slice(0, 64)
}

/** The columns an upload did not read, but those a mapping left out on purpose: the mapping step's. */
export function unreadColumns(upload: Data.Upload) {
  return upload.unmapped_columns.filter((item) => upload.requested_mapping?.[item.column] !== null)
}

/**
 * Why a column was not read, as the portal says it: the API's words point
 * at its `mapping` field, which the report's mapping step stands for here.
 */
export function unreadWords(reason: string) {
  const words = reason.replace(/;\s*map it with `mapping`\.?$/, '.').replaceAll('`', '')
  return words.charAt(0).toLowerCase() + words.slice(1)
}

/** The delimiter as people name it. */
export function delimiterWords(delimiter: string | null) {
  const names: Record<string, string> = {
    ',': 'comma',
    ';': 'semicolon',
    '\t': 'tab',
    '|': 'vertical bar',
  }
  return delimiter === null ? '—' : (names[delimiter] ?? delimiter)
}
