import type { QualityRules } from '#services/quality/quality_rules'
import type { EffectiveRules } from '#services/quality/types'

/**
 * An empty document `{}` is a working policy: consent, e-mail and phone
 * checked with reject, postal codes checked only when given, no extra
 * required fields, no audience criteria, no duplicate detection.
 */
export function effectiveRules(rules: QualityRules, consentMaxAgeDays: number): EffectiveRules {
  return {
    requiredFields: rules.required_fields ?? [],
    postalCode: {
      required: rules.postal_code?.required ?? false,
      action: rules.postal_code?.action ?? 'reject',
    },
    phone: { action: rules.phone?.action ?? 'reject' },
    email: { action: rules.email?.action ?? 'reject' },
    consentMaxAgeDays: rules.consent?.max_age_days ?? consentMaxAgeDays,
    audience: rules.target_audience ?? [],
    duplicates: rules.duplicates
      ? {
          windowDays: rules.duplicates.window_days,
          keys: rules.duplicates.keys,
          action: rules.duplicates.action ?? 'reject',
          scope: rules.duplicates.scope ?? 'publisher',
        }
      : null,
  }
}
