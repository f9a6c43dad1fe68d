/** How the portals say a lead's codes in words. */

const REASONS: Record<string, string> = {
  outside_target_audience: 'Outside the target audience',
  invalid_phone: 'Invalid phone number',
  invalid_email: 'Invalid e-mail address',
  invalid_postal_code: 'Invalid postal code',
  missing_consent: 'No consent given',
  invalid_consent: 'Consent incomplete or invalid',
  missing_field: 'A required field is missing',
  duplicate: 'Duplicate of a recent lead',
  review_rejected: 'Rejected on review',
}

const CHANNELS: Record<string, string> = {
  api: 'API',
  request: 'Other source',
  form: 'Hosted form',
  upload: 'Upload',
}

const UNSOLD: Record<string, string> = {
  no_rule: 'No routing rule takes leads like this one',
  criteria: "No routing rule's criteria match this lead",
  outside_schedule: "Outside every matching rule's hours",
  cap_reached: 'Every matching rule has reached its cap',
}

const CONSENT_METHODS: Record<string, string> = {
  api: 'Sent through the API',
  checkbox: 'Checkbox on a form',
  form_submit: 'Submitting a form',
  upload: 'Upload row',
}

const words = (table: Record<string, string>) => (code: string) =>
  table[code] ?? code.replaceAll('_', ' ')

export const reasonWords = words(REASONS)
export const channelWords = words(CHANNELS)
export const unsoldWords = words(UNSOLD)
export const consentMethodWords = words(CONSENT_METHODS)

const choices = (table: Record<string, string>) =>
  Object.entries(table).map(([value, label]) => ({ value, label }))

export const REASON_CHOICES = choices(REASONS)
export const CHANNEL_CHOICES = choices(CHANNELS)

/** The statuses a list filters on, in a lead's order of life. */
export const STATUS_CHOICES = [
  { value: 'accepted', label: 'Accepted' },
  { value: 'flagged', label: 'Flagged' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'matched', label: 'Matched' },
  { value: 'paid_out', label: 'Paid out' },
  { value: 'returned', label: 'Returned' },
]

/** A SHA-256 hex digest, short enough to read and compare by eye. */
export const shortHash = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '—')
