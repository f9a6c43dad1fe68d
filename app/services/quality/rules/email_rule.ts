import type { Reason, RuleInput } from '#services/quality/types'
import { isValidEmail } from '#services/quality/normalise'

export function emailRule({ normalised, rules }: RuleInput): Reason[] {
  if (normalised.email === null || isValidEmail(normalised.email)) return []
  return [
    {
      code: 'invalid_email',
      field: 'contact.email',
      action: rules.email.action,
      message: 'contact.email is not a valid e-mail address.',
    },
  ]
}
