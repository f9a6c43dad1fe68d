import type { AudienceCriterion, QualityRules, RuleAction } from '#services/quality/quality_rules'
import { effectiveRules } from '#services/quality/effective_rules'
import { describe } from '#services/quality/rules/audience_operators'

/** One rule as a publisher reads it: what happens to a lead, and why. */
export type RuleSentence = { action: RuleAction; text: string }

const FIELD_NAMES: Record<string, string> = {
  'contact.name': 'name',
  'contact.email': 'e-mail address',
  'contact.phone': 'phone number',
  'contact.postal_code': 'postal code',
  'contact.country': 'country',
  'provenance.source': 'source',
  'provenance.campaign': 'campaign',
  'provenance.landing_page': 'landing page',
  'consent.given': 'consent',
  'consent.text': 'consent wording',
  'consent.timestamp': 'consent time',
  'consent.ip': 'consent IP address',
}

/** "attributes.monthly_bill" reads as "monthly bill": the publisher named it, so it knows it. */
export function fieldInWords(path: string) {
  if (FIELD_NAMES[path]) return FIELD_NAMES[path]
  const [, key] = path.split('.')
  return (key ?? path).replaceAll('_', ' ')
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`)
const verb = (action: RuleAction) => (action === 'reject' ? 'We reject' : 'We flag')
const sentence = (action: RuleAction, rest: string): RuleSentence => ({
  action,
  text: `${verb(action)} a lead ${rest}.`,
})

/**
 * A contact value with its own validity check (phone, e-mail, postal code):
 * required or not, with the same or another action for missing and invalid.
 */
function checkedField(
  noun: string,
  missing: RuleAction | null,
  invalid: RuleAction
): RuleSentence[] {
  if (missing === invalid) return [sentence(invalid, `without a valid ${noun}`)]
  const wrong = sentence(invalid, `whose ${noun} is not valid`)
  if (missing === null) {
    return [{ ...wrong, text: wrong.text.replace(/\.$/, ' (leaving it out is fine).') }]
  }
  return [sentence(missing, `without ${article(noun)}`), wrong]
}

/** One target-audience criterion as a sentence; the posting spec describes each with it. */
export function audienceSentence(criterion: AudienceCriterion): RuleSentence {
  const field = fieldInWords(criterion.field)
  const action = criterion.action ?? 'reject'
  // "none of" negated reads badly: say which values are out.
  const outside =
    criterion.op === 'not_in'
      ? `is ${describe('in', criterion.value)}`
      : `is not ${describe(criterion.op, criterion.value)}`
  return sentence(action, `whose ${field} is missing or ${outside}`)
}

/**
 * The publisher's quality rules as plain sentences ("We reject a lead without
 * a valid phone number"), defaults filled in, in the order the intake applies
 * them. The portal's onboarding shows them before the publisher confirms.
 */
export function rulesInWords(
  document: QualityRules,
  options: { consentMaxAgeDays: number }
): RuleSentence[] {
  const rules = effectiveRules(document, options.consentMaxAgeDays)
  const required = new Set(rules.requiredFields)
  const sentences: RuleSentence[] = [
    sentence(
      'reject',
      `without valid consent: the applicant agreed, and you send the exact wording, the time (within the last ${rules.consentMaxAgeDays} days) and the applicant's IP address`
    ),
  ]

  const special = ['contact.phone', 'contact.email', 'contact.postal_code']
  for (const path of rules.requiredFields) {
    if (!special.includes(path) && !path.startsWith('consent.')) {
      sentences.push(sentence('reject', `without ${article(fieldInWords(path))}`))
    }
  }
  sentences.push(
    ...checkedField(
      'phone number',
      required.has('contact.phone') ? 'reject' : null,
      rules.phone.action
    ),
    ...checkedField(
      'e-mail address',
      required.has('contact.email') ? 'reject' : null,
      rules.email.action
    )
  )
  const postalMissing = required.has('contact.postal_code')
    ? 'reject'
    : rules.postalCode.required
      ? rules.postalCode.action
      : null
  sentences.push(...checkedField('postal code', postalMissing, rules.postalCode.action))

  for (const criterion of rules.audience) sentences.push(audienceSentence(criterion))

  if (rules.duplicates) {
    const keys = rules.duplicates.keys.map(fieldInWords).join(' or ')
    const days = rules.duplicates.windowDays
    sentences.push(
      sentence(
        rules.duplicates.action,
        `whose ${keys} already arrived${rules.duplicates.scope === 'platform' ? ' from any publisher' : ''} in the last ${days} ${days === 1 ? 'day' : 'days'}`
      )
    )
  }
  return sentences
}
