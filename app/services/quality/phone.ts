import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * E.164 form of a valid number, or null. National numbers are read in the
 * given country; the full ("max") metadata is used because the smaller sets
 * accept numbers whose ranges are not allocated.
 */
export function toE164(raw: string, country: string): string | null {
  const defaultCountry = isSupportedCountry(country) ? country : undefined
  const parsed = parsePhoneNumberFromString(raw.trim(), { defaultCountry })
  return parsed?.isValid() ? parsed.number : null
}
