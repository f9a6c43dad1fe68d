import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator'

/**
 * Countries whose codes have one written form the library accepts with and
 * without the space: the space goes before the last part, as the postal
 * services write them, so "1012ab" and "1012 AB" are the same code.
 */
const SPACED: Record<string, { compact: RegExp; split: number }> = {
  NL: { compact: /^\d{4}[A-Z]{2}$/, split: 4 },
  GB: { compact: /^[A-Z0-9]{5,7}$/, split: -3 },
  CA: { compact: /^[A-Z]\d[A-Z]\d[A-Z]\d$/, split: 3 },
}

export function normalisePostalCode(raw: string, country: string) {
  const code = raw.trim().toUpperCase().replace(/\s+/g, ' ')
  const spacing = SPACED[country]
  const compact = code.replaceAll(' ', '')
  if (!spacing || !spacing.compact.test(compact)) return code
  return `${compact.slice(0, spacing.split)} ${compact.slice(spacing.split)}`
}

/**
 * `unchecked` for countries the library has no pattern for (or that have no
 * postal codes): we cannot tell, and an unknown is not an invalid code.
 */
export function postalCodeStatus(code: string, country: string): 'valid' | 'invalid' | 'unchecked' {
  if (!postcodeValidatorExistsForCountry(country)) return 'unchecked'
  return postcodeValidator(code, country) ? 'valid' : 'invalid'
}
