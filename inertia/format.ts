import slugify from 'slugify'

/** A stored UTC instant in the reader's own words and time zone; "—" when there is none. */
export function formatDateTime(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/**
 * A stored moment in UTC, as it is stored, so every reader sees the same
 * time: "27 Nov 2026", or "27 Nov 2026 14:05:09 UTC" (without the seconds
 * when `seconds` is false).
 */
export function formatUtc(iso: string, options: { dateOnly?: boolean; seconds?: boolean } = {}) {
  const moment = new Date(iso)
  const date = moment.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
  if (options.dateOnly) return date
  const time = moment.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds === false ? {} : { second: '2-digit' }),
    timeZone: 'UTC',
  })
  return `${date} ${time} UTC`
}

/** A slug suggested from a name until one is typed by hand: "Acme Énergie" → "acme-energie". */
export function slugOf(name: string) {
  return slugify(name, { lower: true, strict: true }).slice(0, 64).replace(/-+$/, '')
}
