import type { Reason, RuleInput } from '#services/quality/types'
import { comparableValueAt, isBlank } from '#services/quality/fields'
import { OPERATORS, describe } from '#services/quality/rules/audience_operators'

/** Each criterion must hold; a field the lead lacks fails its criterion. */
export function audienceRule({ lead, normalised, rules }: RuleInput): Reason[] {
  const reasons: Reason[] = []
  for (const criterion of rules.audience) {
    const actual = comparableValueAt(lead, normalised, criterion.field)
    // A stored document may predate today's validator: an unknown operator fails, it does not throw.
    const operator = OPERATORS[criterion.op] as
      ((actual: unknown, expected: unknown) => boolean) | undefined
    const missing = isBlank(actual)
    if (!missing && operator?.(actual, criterion.value)) continue
    const wanted = operator
      ? describe(criterion.op, criterion.value)
      : `matched by an unknown operator "${criterion.op}"`
    reasons.push({
      code: 'outside_target_audience',
      field: criterion.field,
      action: criterion.action ?? 'reject',
      message: missing
        ? `${criterion.field} is missing; the target audience requires it to be ${wanted}.`
        : `${criterion.field} is outside the target audience: it must be ${wanted}.`,
    })
  }
  return reasons
}
