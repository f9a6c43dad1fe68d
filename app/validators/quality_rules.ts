import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { flag, integer, strictObject } from '#validators/helpers'

export type RuleAction = 'reject' | 'flag'
export type AudienceOperator = 'between' | 'in' | 'not_in' | 'eq' | 'gte' | 'lte' | 'prefix'
export type Scalar = string | number | boolean
/**
 * One test on one lead field. `value` depends on `op`: `between` a
 * `[min, max]` pair of numbers, `in`/`not_in` a list of scalars, `eq` a
 * scalar, `gte`/`lte` a number, `prefix` a string. Routing-rule criteria
 * have no action: a criterion that fails there only means "not this buyer".
 */
export type AudienceCriterion = {
  field: string
  op: AudienceOperator
  value?: unknown
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
  duplicates?: { window_days: number; keys: string[]; action: RuleAction }
}

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
const ATTRIBUTE_PATH = /^attributes\.[a-z][a-z0-9_]{0,63}$/

export function isLeadFieldPath(path: string) {
  return (LEAD_FIELD_PATHS as readonly string[]).includes(path) || ATTRIBUTE_PATH.test(path)
}

const leadFieldPath = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !isLeadFieldPath(value)) {
    field.report(
      `Unknown lead field; use one of ${LEAD_FIELD_PATHS.join(', ')} or attributes.<key> (lower case, digits, underscores).`,
      'lead_field',
      field
    )
  }
})
const fieldPath = () => vine.string().maxLength(80).use(leadFieldPath())

const MAX_LIST_VALUES = 100
const MAX_STRING_VALUE = 200

function isScalar(value: unknown): value is Scalar {
  if (typeof value === 'string') return value.length <= MAX_STRING_VALUE
  return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
}
const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** What `value` must be for each operator; the message says so when it is not. */
const VALUE_SHAPES: Record<
  AudienceOperator,
  { check: (value: unknown) => boolean; message: string }
> = {
  between: {
    check: (value) =>
      Array.isArray(value) && value.length === 2 && value.every(isNumber) && value[0] <= value[1],
    message: '"between" takes a [min, max] pair of numbers with min <= max.',
  },
  in: {
    check: (value) =>
      Array.isArray(value) &&
      value.length > 0 &&
      value.length <= MAX_LIST_VALUES &&
      value.every(isScalar),
    message: `"in" takes a list of 1 to ${MAX_LIST_VALUES} strings, numbers or booleans.`,
  },
  not_in: {
    check: (value) =>
      Array.isArray(value) &&
      value.length > 0 &&
      value.length <= MAX_LIST_VALUES &&
      value.every(isScalar),
    message: `"not_in" takes a list of 1 to ${MAX_LIST_VALUES} strings, numbers or booleans.`,
  },
  eq: {
    check: isScalar,
    message: `"eq" takes a string (up to ${MAX_STRING_VALUE} characters), number or boolean.`,
  },
  gte: { check: isNumber, message: '"gte" takes a number.' },
  lte: { check: isNumber, message: '"lte" takes a number.' },
  prefix: {
    check: (value) =>
      typeof value === 'string' && value.length > 0 && value.length <= MAX_STRING_VALUE,
    message: `"prefix" takes a non-empty string of up to ${MAX_STRING_VALUE} characters.`,
  },
}

const valueForOperator = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  const op = (field.parent as { op?: unknown } | undefined)?.op
  const shape = typeof op === 'string' ? VALUE_SHAPES[op as AudienceOperator] : undefined
  // An unknown operator is reported on `op`; there is nothing to check the value against.
  if (shape && !shape.check(value)) {
    field.report(shape.message, 'criterion_value', field)
  }
})

export const ruleAction = () => vine.enum(RULE_ACTIONS)

/**
 * One criterion, shared by quality rules (with an action) and routing rules
 * (without): the one definition of what a lead test may look like.
 */
export function audienceCriterion<WithAction extends boolean>(options: { action: WithAction }) {
  const properties = {
    field: fieldPath(),
    op: vine.enum(AUDIENCE_OPERATORS),
    value: vine.any().use(valueForOperator()),
  }
  return strictObject(options.action ? { ...properties, action: ruleAction() } : properties)
}

export const MAX_CRITERIA = 50

const alwaysTrue = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (value !== true) {
    field.report(
      'Consent is always required: a lead without valid consent is blocked.',
      'consent_required',
      field
    )
  }
})

export const qualityRulesValidator = vine.create(
  strictObject({
    required_fields: vine.array(fieldPath()).maxLength(50).distinct().optional(),
    postal_code: strictObject({ required: flag(), action: ruleAction() }).optional(),
    phone: strictObject({ action: ruleAction() }).optional(),
    email: strictObject({ action: ruleAction() }).optional(),
    consent: strictObject({
      required: flag().use(alwaysTrue()),
      action: ruleAction(),
      max_age_days: integer().range([1, 3650]).optional(),
    }).optional(),
    target_audience: vine
      .array(audienceCriterion({ action: true }))
      .maxLength(MAX_CRITERIA)
      .optional(),
    duplicates: strictObject({
      window_days: integer().range([1, 365]),
      keys: vine.array(vine.enum(DUPLICATE_KEYS)).notEmpty().distinct(),
      action: ruleAction(),
    }).optional(),
  })
)
