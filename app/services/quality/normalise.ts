import ipaddr from 'ipaddr.js'
import vine from '@vinejs/vine'
import type { LeadInput, Normalised } from '#services/quality/types'
import { isBlank } from '#services/quality/fields'
import { toE164 } from '#services/quality/phone'
import { normalisePostalCode } from '#services/quality/postal_code'

/**
 * The lead's contact values in canonical form. Exported on its own so the
 * caller can build duplicate keys before evaluating.
 */
export function normaliseLead(lead: LeadInput, defaultCountry: string): Normalised {
  const contact = lead.contact ?? {}
  const country = (isBlank(contact.country) ? defaultCountry : contact.country!)
    .trim()
    .toUpperCase()
  return {
    email: isBlank(contact.email) ? null : normaliseEmail(contact.email!),
    phone: isBlank(contact.phone) ? null : toE164(contact.phone!, country),
    country,
    postal_code: isBlank(contact.postal_code)
      ? null
      : normalisePostalCode(contact.postal_code!, country),
    ip: isBlank(lead.consent?.ip) ? null : normaliseIp(lead.consent!.ip!),
  }
}

export function normaliseEmail(email: string) {
  return email.trim().toLowerCase()
}

/**
 * Strict syntax (VineJS's own check: no octal or hex IPv4 forms), then the
 * canonical text so one address always commits to the same value.
 */
export function normaliseIp(ip: string): string | null {
  const text = ip.trim()
  if (!vine.helpers.isIP(text)) return null
  try {
    return ipaddr.process(text).toString()
  } catch {
    return null
  }
}

export function isValidEmail(email: string) {
  return vine.helpers.isEmail(email)
}
