import type { RuleAction } from '#services/quality/quality_rules'
import { effectiveRules } from '#services/quality/effective_rules'
import { REASON_CODES, type ReasonCode } from '#services/quality/types'
import type { PostingSubject } from './posting_spec_rules.js'

/**
 * Every answer a publisher's lead or ping can be refused with: the quality rules' reasons its
 * rules can give (a stored lead, rejected or flagged) and the problems that store nothing.
 */
type Reason = { code: ReasonCode | 'review_rejected'; actions: RuleAction[]; when: string }

export function reasonsFor(subject: PostingSubject): Reason[] {
  const rules = effectiveRules(subject.rules, subject.consentMaxAgeDays)
  const required = rules.requiredFields.length > 0 || rules.postalCode.required
  const audience = [...new Set(rules.audience.map((criterion) => criterion.action ?? 'reject'))]
  const byCode: Record<ReasonCode, Omit<Reason, 'code'> | null> = {
    missing_consent: { actions: ['reject'], when: 'The lead carries no consent, or not given.' },
    invalid_consent: {
      actions: ['reject'],
      when: `The consent lacks its wording, time or IP, or is older than ${rules.consentMaxAgeDays} days.`,
    },
    missing_field: required
      ? {
          actions: [
            ...new Set<RuleAction>([
              'reject',
              ...(rules.postalCode.required ? [rules.postalCode.action] : []),
            ]),
          ],
          when: 'A field the rules require is missing.',
        }
      : null,
    invalid_phone: { actions: [rules.phone.action], when: 'The phone number is not valid.' },
    invalid_email: { actions: [rules.email.action], when: 'The e-mail address is not valid.' },
    invalid_postal_code: {
      actions: [rules.postalCode.action],
      when: "The postal code is not valid for the lead's country.",
    },
    outside_target_audience: audience.length
      ? { actions: audience, when: 'A target-audience criterion does not hold.' }
      : null,
    duplicate: rules.duplicates
      ? {
          actions: [rules.duplicates.action],
          when: `The same ${rules.duplicates.keys.join(' or ')} arrived within ${rules.duplicates.windowDays} days.`,
        }
      : null,
  }
  const reasons: Reason[] = REASON_CODES.flatMap((code) =>
    byCode[code] ? [{ code, ...byCode[code] }] : []
  )
  if (reasons.some((reason) => reason.actions.includes('flag'))) {
    reasons.push({
      code: 'review_rejected',
      actions: ['reject'],
      when: 'The operator rejected a flagged lead on review.',
    })
  }
  return reasons
}

/** Problems (`application/problem+json`, nothing stored) a lead or a ping of this API can get. */
export const POSTING_PROBLEMS = [
  { code: 'malformed_json', status: 400, when: 'The body is not a JSON object.' },
  {
    code: 'validation_failed',
    status: 422,
    when: 'The body does not have the shape of this document (`errors` lists each field).',
  },
  {
    code: 'contact_not_allowed',
    status: 422,
    when: 'A ping carries a name, an e-mail or a phone.',
  },
  {
    code: 'publisher_mismatch',
    status: 403,
    when: '`publisher` is not the key’s own publisher.',
  },
  {
    code: 'publisher_not_live',
    status: 403,
    when: 'A live key delivers for a publisher that is not live yet.',
  },
  {
    code: 'ping_mismatch',
    status: 409,
    when: 'The lead’s postal code, country, provenance or attributes are not its ping’s, or the `ping_id` is not yours.',
  },
  { code: 'ping_used', status: 409, when: 'A lead was posted on this ping already.' },
  { code: 'ping_expired', status: 410, when: 'The ping’s offer expired: ping again.' },
  { code: 'rate_limited', status: 429, when: 'The key spent its request budget.' },
] as const

/** Both lists as schemas: a `oneOf` of constants, each saying when it is given. */
export function codeSchemas(subject: PostingSubject) {
  return {
    PostingReason: {
      type: 'string',
      description:
        'The `reasons[].code` a lead of this publisher can get: stored, with the action (`reject`: rejected; `flag`: held for review).',
      oneOf: reasonsFor(subject).map((reason) => ({
        const: reason.code,
        description: `${reason.when} (${reason.actions.join(' or ')})`,
      })),
    },
    PostingProblem: {
      type: 'string',
      description: 'The problem `code` of a lead or ping that was refused; nothing was stored.',
      oneOf: POSTING_PROBLEMS.map((problem) => ({
        const: problem.code,
        description: `${problem.status}: ${problem.when}`,
      })),
    },
  }
}
