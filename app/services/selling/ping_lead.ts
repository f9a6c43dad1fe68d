import type { PingLead } from '#services/selling/buyer_lead'
import { NEVER_PINGED, type PingPolicy, type PingTreatment } from '#services/routing/sale_settings'
import type { SaleLead } from '#services/routing/sale_types'

/**
 * The partial lead a ping carries (DESIGN §14): each field as the label's ping policy says,
 * `plain`, `bucketed` (a number as its band of ten, a postal code as its area) or `never`.
 * A name, an e-mail or a phone never leaves in a ping, nor anything made from them; a field the
 * policy does not name never leaves either. Attributes follow `attributes.<name>`, else
 * `attributes.*`.
 */
export function partialLead(lead: SaleLead, policy: PingPolicy): PingLead {
  const treatment = (path: string): PingTreatment => {
    if ((NEVER_PINGED as readonly string[]).includes(path)) return 'never'
    if (path.startsWith('attributes.')) return policy[path] ?? policy['attributes.*'] ?? 'never'
    return policy[path] ?? 'never'
  }
  const country = lead.contact.country ?? null
  const contact: Record<string, string> = {}
  const postal = shown(lead.contact.postal_code, treatment('contact.postal_code'), (code) =>
    postalArea(code, country)
  )
  if (postal !== undefined) contact.postal_code = String(postal)
  const shownCountry = shown(country, treatment('contact.country'), () => undefined)
  if (shownCountry !== undefined) contact.country = String(shownCountry)

  const provenance: Record<string, string> = {}
  for (const key of ['source', 'campaign', 'landing_page'] as const) {
    const value = shown(lead.provenance[key], treatment(`provenance.${key}`), () => undefined)
    if (value !== undefined) provenance[key] = String(value)
  }
  const attributes: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(lead.attributes ?? {})) {
    const kept = shown(value, treatment(`attributes.${key}`), bucketOf)
    if (kept !== undefined) attributes[key] = kept
  }
  return {
    lead_id: lead.lead_id,
    contact: contact as PingLead['contact'],
    provenance: provenance as PingLead['provenance'],
    attributes,
    ...(lead.currency ? { currency: lead.currency } : {}),
  }
}

function shown<T>(
  value: T | null | undefined,
  treatment: PingTreatment,
  bucket: (value: NonNullable<T>) => string | number | boolean | undefined
): string | number | boolean | undefined {
  if (value === null || value === undefined || value === '' || treatment === 'never')
    return undefined
  if (treatment === 'bucketed') return bucket(value as NonNullable<T>)
  return value as unknown as string | number | boolean
}

/** A number as its band of ten ("40-49"); anything else cannot be coarsened, so it stays home. */
function bucketOf(value: string | number | boolean) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  const low = Math.floor(value / 10) * 10
  return `${low}-${low + 9}`
}

/** A postal code's area: the outward code in the UK, three digits of a US ZIP, else two characters. */
export function postalArea(code: string, country: string | null) {
  const compact = code.trim().toUpperCase()
  // A UK inward code is always three characters: what comes before it is the area.
  if (country === 'GB') return compact.replace(/\s+/g, '').slice(0, -3)
  if (country === 'US') return compact.slice(0, 3)
  return compact.replace(/\s+/g, '').slice(0, 2)
}
