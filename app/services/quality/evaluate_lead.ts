import type {
  Evaluation,
  EvaluationContext,
  LeadInput,
  Reason,
  RuleInput,
} from '#services/quality/types'
import intakeConfig from '#config/intake'
import { effectiveRules } from '#services/quality/effective_rules'
import { normaliseLead } from '#services/quality/normalise'
import { consentRule } from '#services/quality/rules/consent_rule'
import { requiredFieldsRule } from '#services/quality/rules/required_fields_rule'
import { postalCodeRule } from '#services/quality/rules/postal_code_rule'
import { phoneRule } from '#services/quality/rules/phone_rule'
import { emailRule } from '#services/quality/rules/email_rule'
import { audienceRule } from '#services/quality/rules/audience_rule'
import { duplicateRule } from '#services/quality/rules/duplicate_rule'

export const DEFAULT_CLOCK_SKEW_SECONDS = 300

/**
 * What a publisher's lead is judged against, wherever it is judged (intake, the rules
 * preview): its rules and country, and the configured consent age and clock skew.
 */
export function publisherContext(
  publisher: { country: EvaluationContext['defaultCountry'] },
  rules: EvaluationContext['rules'],
  now: Date
) {
  return {
    rules,
    defaultCountry: publisher.country,
    now,
    consentMaxAgeDays: intakeConfig.consentMaxAgeDays,
    clockSkewSeconds: intakeConfig.clockSkewSeconds,
  }
}

/**
 * Judges one shape-validated lead against its publisher's quality rules.
 * Pure and synchronous: the caller supplies the clock and the duplicate
 * look-up, so the same input always gives the same verdict.
 */
export function evaluateLead(lead: LeadInput, context: EvaluationContext): Evaluation {
  const normalised = context.normalised ?? normaliseLead(lead, context.defaultCountry)
  const input: RuleInput = {
    lead,
    normalised,
    rules: effectiveRules(context.rules, context.consentMaxAgeDays),
    now: context.now,
    clockSkewSeconds: context.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
    duplicate: context.duplicate,
    channel: context.channel,
  }

  const consent = consentRule(input)
  const audience = audienceRule(input)
  const reasons = merge([
    ...consent.reasons,
    ...requiredFieldsRule(input),
    ...postalCodeRule(input),
    ...emailRule(input),
    ...phoneRule(input),
    ...audience,
    ...duplicateRule(input),
  ])

  return {
    outcome: reasons.some((reason) => reason.action === 'reject')
      ? 'rejected'
      : reasons.length > 0
        ? 'flagged'
        : 'accepted',
    quality_check: {
      consent: consent.status,
      target_audience: audience.length > 0 ? 'outside' : 'within',
      duplicate: input.rules.duplicates !== null && context.duplicate,
    },
    reasons,
    normalised,
  }
}

/**
 * One reason per code and field: a postal code both listed as required and
 * required by its own rule is reported once, with the stricter action.
 */
function merge(reasons: Reason[]) {
  const byKey = new Map<string, Reason>()
  for (const reason of reasons) {
    const key = `${reason.code}\u0000${reason.field ?? ''}`
    const seen = byKey.get(key)
    if (!seen) byKey.set(key, reason)
    else if (seen.action === 'flag' && reason.action === 'reject') byKey.set(key, reason)
  }
  return [...byKey.values()]
}
