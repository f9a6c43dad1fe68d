import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'

/** What a ping may carry of a lead: no name, no e-mail, no phone (API.md, "Selling"). */
export type PingFields = {
  contact?: { postal_code?: string | null; country?: string | null } | null
  provenance?: {
    source?: string | null
    campaign?: string | null
    landing_page?: string | null
  } | null
  attributes?: Record<string, string | number | boolean> | null
}

/** Contact fields a ping must never carry; one that does is refused (422 `contact_not_allowed`). */
export const CONTACT_FIELDS = ['name', 'email', 'phone'] as const

/**
 * The part of a lead (or a ping) its ping is bound to, in one form: a lead posted with a ping's
 * id must carry exactly these values, the postal code compared without case or spacing and the
 * country defaulting to the publisher's, as intake reads them.
 */
export function boundFields(fields: PingFields, defaultCountry: string) {
  const postal = fields.contact?.postal_code?.replace(/\s+/g, '').toUpperCase() || null
  return {
    postal_code: postal,
    country: (fields.contact?.country ?? defaultCountry).toUpperCase(),
    source: fields.provenance?.source ?? null,
    campaign: fields.provenance?.campaign ?? null,
    landing_page: fields.provenance?.landing_page ?? null,
    attributes: fields.attributes ?? {},
  }
}

/** The SHA-256 a ping's id is bound to: its publisher, environment and fields, canonical JSON. */
export function pingDigest(
  publisherId: string,
  environment: string,
  fields: PingFields,
  defaultCountry: string
) {
  const bound = { publisher_id: publisherId, environment, ...boundFields(fields, defaultCountry) }
  return createHash('sha256').update(canonicalize(bound)!).digest('hex')
}
