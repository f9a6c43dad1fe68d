/** What replaces a value that was personal. */
export const ERASED = '[erased]'

/** Keys whose whole value is personal wherever they appear in a stored document. */
const PERSONAL_KEYS = ['contact', 'attributes', 'ip', 'details', 'note']

/** Events whose `reason` is a person's free text rather than a code. */
const FREE_TEXT_REASON = new Set(['lead.reviewed'])

/** `redact` for an event's payload: its type says which keys are free text. */
export function redactEvent(type: string, payload: unknown, needles: string[]) {
  const keys = new Set(FREE_TEXT_REASON.has(type) ? [...PERSONAL_KEYS, 'reason'] : PERSONAL_KEYS)
  return redact(payload, needles, keys)
}

/**
 * A stored JSON document (an event's payload, an access-log entry's details) without the
 * subject: the personal keys emptied, and any other string that contains one of `needles`
 * (the subject's e-mail, phone, IP, as stored) replaced. Ids, codes and times stay, so the
 * document still says what happened.
 */
export function redact(
  value: unknown,
  needles: string[],
  keys: Set<string> = new Set(PERSONAL_KEYS),
  key?: string
): unknown {
  if (key !== undefined && keys.has(key)) {
    if (value === null || typeof value !== 'object') return value === null ? null : ERASED
    return Array.isArray(value) ? [] : {}
  }
  if (typeof value === 'string') return mentions(value, needles) ? ERASED : value
  if (Array.isArray(value)) return value.map((item) => redact(item, needles, keys))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, redact(item, needles, keys, name)])
    )
  }
  return value
}

export function mentions(text: string, needles: string[]) {
  const lower = text.toLowerCase()
  return needles.some((needle) => lower.includes(needle.toLowerCase()))
}

/** The distinct, non-empty values worth searching for (short ones would match by chance). */
export function needlesOf(values: unknown[]) {
  const found = new Set<string>()
  for (const value of values) {
    if (typeof value === 'string' && value.trim().length >= 5) found.add(value.trim())
  }
  return [...found]
}
