import slugify from 'slugify'

/** A stored UTC instant in the reader's own words and time zone; "—" when there is none. */
export function formatDateTime(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A slug suggested from a name until one is typed by hand: "Acme Énergie" → "acme-energie". */
export function slugOf(name: string) {
  return slugify(name, { lower: true, strict: true }).slice(0, 64).replace(/-+$/, '')
}
