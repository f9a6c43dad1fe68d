import type { Reason, RuleInput } from '#services/quality/types'

/**
 * The caller looks the keys up (`screenDuplicates`); without a `duplicates`
 * rule nothing counts as a duplicate, whatever the caller found.
 */
export function duplicateRule({ rules, duplicate }: RuleInput): Reason[] {
  if (!rules.duplicates || !duplicate) return []
  return [
    {
      code: 'duplicate',
      action: rules.duplicates.action,
      message: `A lead with the same ${rules.duplicates.keys.join(' or ')} arrived in the last ${rules.duplicates.windowDays} days.`,
    },
  ]
}
