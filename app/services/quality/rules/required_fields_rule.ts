import type { Reason, RuleInput } from '#services/quality/types'
import { isBlank, valueAt } from '#services/quality/fields'

/** The document's minimum fields; the list has no action of its own, a missing one blocks. */
export function requiredFieldsRule({ lead, rules }: RuleInput): Reason[] {
  return rules.requiredFields
    .filter((path) => isBlank(valueAt(lead, path)))
    .map((path) => ({
      code: 'missing_field' as const,
      field: path,
      action: 'reject' as const,
      message: `${path} is required by the publisher's quality rules.`,
    }))
}
