import type { Reason, RuleInput } from '#services/quality/types'
import { isBlank } from '#services/quality/fields'

/** Presence is the required-fields rule's business; this one judges a number that was given. */
export function phoneRule({ lead, normalised, rules }: RuleInput): Reason[] {
  if (isBlank(lead.contact?.phone) || normalised.phone !== null) return []
  return [
    {
      code: 'invalid_phone',
      field: 'contact.phone',
      action: rules.phone.action,
      message: `contact.phone is not a valid phone number (numbers without a country code are read as ${normalised.country} numbers).`,
    },
  ]
}
