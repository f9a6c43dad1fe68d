/**
 * The vocabulary of quality rules: what a publisher's rules document may say
 * and which lead fields a rule (or a routing-rule criterion) may name. The
 * validator (app/validators/quality_rules.ts) checks input against it; the
 * engine evaluates it.
 */
export type RuleAction = 'reject' | 'flag'
export type AudienceOperator = 'between' | 'in' | 'not_in' | 'eq' | 'gte' | 'lte' | 'prefix'
export type Scalar = string | number | boolean
/**
 * One test on one lead field. `value` depends on `op`: `between` a
 * `[min, max]` pair of numbers, `in`/`not_in` a list of scalars, `eq` a
 * scalar, `gte`/`lte` a number, `prefix` a string. Routing-rule criteria
 * have no action: a criterion that fails there only means "not this buyer".
 */
/**
 * What a criterion compares with: one value, a list (`in`, `not_in`) or a range (`between`, a
 * pair; the engine reads a `{min, max}` too). Whatever else is stored never matches.
 */
export type AudienceValue =
  string | number | boolean | (string | number | boolean)[] | { min: number; max: number }

export type AudienceCriterion = {
  field: string
  op: AudienceOperator
  value?: AudienceValue
  action?: RuleAction
}

/**
 * A publisher's quality rules, as stored on `publishers.quality_rules` and
 * answered by GET /v1/publishers/{id}/quality-rules.
 *
 * Every key is optional; a missing key means the default, so `{}` is a
 * complete document:
 * - `required_fields`: none beyond what the lead shape itself requires;
 * - `postal_code`: not required; when given it is still checked for the
 *   lead's country;
 * - `phone`, `email`: an invalid value rejects the lead (`action: "reject"`);
 * - `consent`: required, rejects (a lead without valid consent is always
 *   blocked; `required` can never be false), no maximum age;
 * - `target_audience`: no criteria, every lead is within;
 * - `duplicates`: off, no lead counts as a duplicate.
 */
export type QualityRules = {
  required_fields?: string[]
  postal_code?: { required: boolean; action: RuleAction }
  phone?: { action: RuleAction }
  email?: { action: RuleAction }
  consent?: { required: true; action: RuleAction; max_age_days?: number }
  target_audience?: AudienceCriterion[]
  /**
   * `scope`: `publisher` (the default) compares with the publisher's own earlier leads,
   * `platform` with every publisher's (by fingerprint), and never says whose.
   */
  duplicates?: {
    window_days: number
    keys: string[]
    action: RuleAction
    scope?: (typeof DUPLICATE_SCOPES)[number]
  }
}

export const DUPLICATE_SCOPES = ['publisher', 'platform'] as const

/** What `duplicates.keys` may hold. */
export type DuplicateKey = (typeof DUPLICATE_KEYS)[number]

export const RULE_ACTIONS = ['reject', 'flag'] as const
export const AUDIENCE_OPERATORS = ['between', 'in', 'not_in', 'eq', 'gte', 'lte', 'prefix'] as const
export const DUPLICATE_KEYS = ['contact.email', 'contact.phone'] as const

/** Lead fields a rule may name; custom fields live under `attributes.`. */
export const LEAD_FIELD_PATHS = [
  'contact.name',
  'contact.email',
  'contact.phone',
  'contact.postal_code',
  'contact.country',
  'provenance.source',
  'provenance.campaign',
  'provenance.landing_page',
  'consent.given',
  'consent.text',
  'consent.timestamp',
  'consent.ip',
] as const
export const ATTRIBUTE_PATH = /^attributes\.[a-z][a-z0-9_]{0,63}$/

export function isLeadFieldPath(path: string) {
  return (LEAD_FIELD_PATHS as readonly string[]).includes(path) || ATTRIBUTE_PATH.test(path)
}

export const MAX_CRITERIA = 50
