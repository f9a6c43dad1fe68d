import { DateTime } from 'luxon'
import type { ConsentStatus, Reason, RuleInput } from '#services/quality/types'
import { isBlank } from '#services/quality/fields'

/** Channels that cannot know the applicant's IP: a no-code request relays another tool's form. */
const WITHOUT_IP = new Set(['request'])

/**
 * Provable consent: given, with the wording, a plausible moment and the
 * applicant's IP where the channel has it. The action is always reject — the specification
 * blocks a lead without valid consent whatever the publisher's document says.
 */
export function consentRule({
  lead,
  normalised,
  rules,
  now,
  clockSkewSeconds,
  channel,
}: RuleInput): {
  status: ConsentStatus
  reasons: Reason[]
} {
  const consent = lead.consent
  if (!consent || consent.given !== true) {
    return {
      status: 'missing',
      reasons: [
        {
          code: 'missing_consent',
          field: 'consent.given',
          action: 'reject',
          message: 'The applicant did not give consent (consent.given must be true).',
        },
      ],
    }
  }

  const defects: Array<[field: string, message: string]> = []
  if (isBlank(consent.text)) {
    defects.push([
      'consent.text',
      'consent.text must hold the exact wording the applicant agreed to.',
    ])
  }
  const moment = parseMoment(consent.timestamp)
  if (!moment) {
    defects.push(['consent.timestamp', 'consent.timestamp must be an ISO 8601 timestamp.'])
  } else if (moment.toMillis() > now.getTime() + clockSkewSeconds * 1000) {
    defects.push(['consent.timestamp', 'consent.timestamp lies in the future.'])
  } else if (moment.toMillis() < now.getTime() - rules.consentMaxAgeDays * 86_400_000) {
    defects.push([
      'consent.timestamp',
      `consent.timestamp is older than ${rules.consentMaxAgeDays} days.`,
    ])
  }
  if (normalised.ip === null && !(channel && WITHOUT_IP.has(channel))) {
    defects.push(['consent.ip', "consent.ip must be the applicant's full IPv4 or IPv6 address."])
  }

  return {
    status: defects.length === 0 ? 'valid' : 'invalid',
    reasons: defects.map(([field, message]) => ({
      code: 'invalid_consent',
      field,
      action: 'reject',
      message,
    })),
  }
}

function parseMoment(value: string | Date | null | undefined) {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : DateTime.fromJSDate(value)
  if (typeof value !== 'string') return null
  const moment = DateTime.fromISO(value.trim(), { zone: 'utc' })
  return moment.isValid ? moment : null
}
