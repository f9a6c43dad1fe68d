/** Uploads as the portal's uploads controller hands them to the pages (GET /v1/uploads's JSON). */

/** Whose portal an upload page is in: the operator's (every publisher's uploads) or a publisher's. */
export type UploadAudience = 'operator' | 'publisher'

export type UploadStatus = 'validating' | 'validated' | 'accepting' | 'accepted'
export type RowOutcome = 'accepted' | 'flagged' | 'rejected'

export type Upload = {
  id: string
  publisher: string
  environment: 'live' | 'sandbox'
  status: UploadStatus
  format: 'csv' | 'jsonl'
  filename: string | null
  encoding: string
  delimiter: string | null
  bytes: number
  rows: number
  counts: Record<RowOutcome, number>
  progress: { step: 'validate' | 'accept'; done: number; total: number; percent: number }
  include_flagged: boolean
  leads_created: number
  columns: string[]
  mapping: Record<string, string>
  unmapped_columns: { column: string; reason: string }[]
  requested_mapping: Record<string, string | null> | null
  created_at: string | null
  validated_at: string | null
  accepted_at: string | null
  /** The operator's view: the publisher's name; null for a publisher. */
  publisher_name: string | null
  /** Who uploaded, in words the reader may see. */
  uploaded_by: string | null
}

export type UploadRowReason = {
  code: string
  field?: string
  action: string
  message: string
}

export type UploadRowResult = {
  row: number
  outcome: RowOutcome | 'pending'
  reasons: UploadRowReason[]
  lead_id: string | null
  lead_status: string | null
}

/** The limits a file must keep to, from the server. */
export type UploadLimits = { max_bytes: number; max_rows: number }

/** Whether a publisher takes uploads now, and as which leads. */
export type UploadOpening =
  | { open: true; environment: 'live' | 'sandbox' }
  | { open: false; reason: 'not_enabled' | 'paused' }

export type UploadPublisher = { id: string; slug: string; name: string; opening: UploadOpening }

/** An upload's status in words, with what it means now. */
export const STATUS_WORDS: Record<UploadStatus, string> = {
  validating: 'Checking rows',
  validated: 'Ready to accept',
  accepting: 'Creating leads',
  accepted: 'Accepted',
}

/** The tag's colour for each status. */
export const STATUS_SEVERITY: Record<UploadStatus, 'info' | 'warn' | 'success'> = {
  validating: 'info',
  validated: 'warn',
  accepting: 'info',
  accepted: 'success',
}

/** A row's outcome in words: "accepted" is a row that would become an accepted lead. */
export const OUTCOME_WORDS: Record<UploadRowResult['outcome'], string> = {
  accepted: 'Valid',
  flagged: 'Flagged',
  rejected: 'Rejected',
  pending: 'Not checked yet',
}

export const OUTCOME_SEVERITY: Record<
  UploadRowResult['outcome'],
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
export function unreadColumns(upload: Upload) {
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
