import type { Reason, RuleInput } from '#services/quality/types'
import { isBlank } from '#services/quality/fields'
import { postalCodeStatus } from '#services/quality/postal_code'

const FIELD = 'contact.postal_code'

export function postalCodeRule({ lead, normalised, rules }: RuleInput): Reason[] {
  const { required, action } = rules.postalCode
  if (isBlank(lead.contact?.postal_code)) {
    return required
      ? [
          {
            code: 'missing_field',
            field: FIELD,
            action,
            message: `${FIELD} is required by the publisher's quality rules.`,
          },
        ]
      : []
  }
  if (postalCodeStatus(normalised.postal_code!, normalised.country) !== 'invalid') return []
  return [
    {
      code: 'invalid_postal_code',
      field: FIELD,
      action,
      message: `${FIELD} is not a valid postal code for country ${normalised.country}.`,
    },
  ]
}
