import type { AudienceCriterion, QualityRules, RuleAction } from '#services/quality/quality_rules'

export type AttributeValue = string | number | boolean

/**
 * A lead after shape validation. Fields are optional here on purpose: the
 * engine never assumes the shape validator required them, it reports what
 * is missing instead of throwing.
 */
export type LeadInput = {
  publisher: string
  contact: {
    name?: string | null
    email?: string | null
    phone?: string | null
    postal_code?: string | null
    country?: string | null
  }
  provenance?: {
    source?: string | null
    campaign?: string | null
    landing_page?: string | null
  } | null
  consent?: {
    given?: boolean | null
    text?: string | null
    timestamp?: string | Date | null
    ip?: string | null
    /** The hosted form's consent wording version the text is (forms only; never sent by a client). */
    version_id?: string | null
  } | null
  attributes?: Record<string, AttributeValue> | null
}

/** What the quality rules give as reasons; lists filter on them. */
export const REASON_CODES = [
  'outside_target_audience',
  'invalid_phone',
  'invalid_email',
  'invalid_postal_code',
  'missing_consent',
  'invalid_consent',
  'missing_field',
  'duplicate',
] as const
export type ReasonCode = (typeof REASON_CODES)[number]

export type Reason = { code: ReasonCode; field?: string; action: RuleAction; message: string }

export type ConsentStatus = 'valid' | 'missing' | 'invalid'
export type Outcome = 'accepted' | 'flagged' | 'rejected'

/** Contact values in the one form used for storage, duplicate keys and consent commitments. */
export type Normalised = {
  /** Trimmed and lowercased; null when absent. */
  email: string | null
  /** E.164; null when absent or not a valid number. */
  phone: string | null
  /** ISO 3166-1 alpha-2: the contact's own or the publisher's default. */
  country: string
  /** Upper case, single spaces, the country's usual spacing; null when absent. */
  postal_code: string | null
  /** The consent IP in canonical text form (IPv4-mapped IPv6 as IPv4); null when absent or invalid. */
  ip: string | null
}

export type Evaluation = {
  outcome: Outcome
  quality_check: {
    consent: ConsentStatus
    target_audience: 'within' | 'outside'
    duplicate: boolean
  }
  reasons: Reason[]
  normalised: Normalised
}

export type EvaluationContext = {
  rules: QualityRules
  defaultCountry: string
  now: Date
  /** Used when the rules document sets no `consent.max_age_days`. */
  consentMaxAgeDays: number
  /** How far in the future a consent timestamp may lie (clock drift of the sender). */
  clockSkewSeconds?: number
  /** Whether the caller found an earlier lead with the same keys inside the window. */
  duplicate: boolean
  /** `normaliseLead(lead, defaultCountry)` when the caller already has it (for the duplicate keys). */
  normalised?: Normalised
  /**
   * How the lead arrived: consent asks of each channel what it can give (a no-code request
   * carries the wording and the moment, not the applicant's IP).
   */
  channel?: string
}

/** The rules document with every default filled in. */
export type EffectiveRules = {
  requiredFields: string[]
  postalCode: { required: boolean; action: RuleAction }
  phone: { action: RuleAction }
  email: { action: RuleAction }
  consentMaxAgeDays: number
  audience: AudienceCriterion[]
  duplicates: {
    windowDays: number
    keys: string[]
    action: RuleAction
    scope: 'publisher' | 'platform'
  } | null
}

export type RuleInput = {
  lead: LeadInput
  normalised: Normalised
  rules: EffectiveRules
  now: Date
  clockSkewSeconds: number
  duplicate: boolean
  channel?: string
}
