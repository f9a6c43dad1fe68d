import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import type { JSONSchema7 } from 'json-schema'
import { documentedAs, flag, integer, strictObject } from '#validators/helpers'
import { leadFieldsSchema } from '#validators/lead'
import {
  ATTRIBUTE_PATH,
  AUDIENCE_OPERATORS,
  type AudienceOperator,
  DUPLICATE_KEYS,
  DUPLICATE_SCOPES,
  LEAD_FIELD_PATHS,
  MAX_CRITERIA,
  RULE_ACTIONS,
  type Scalar,
  isLeadFieldPath,
} from '#services/quality/quality_rules'

const leadFieldPath = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (typeof value === 'string' && !isLeadFieldPath(value)) {
      field.report(
        `Unknown lead field; use one of ${LEAD_FIELD_PATHS.join(', ')} or attributes.<key> (lower case, digits, underscores).`,
        'lead_field',
        field
      )
    }
  },
  {
    toJSONSchema: (schema) => {
      schema.anyOf = [{ enum: [...LEAD_FIELD_PATHS] }, { pattern: ATTRIBUTE_PATH.source }]
    },
  }
)
const fieldPath = () =>
  vine.string().maxLength(80).use(leadFieldPath()).use(documentedAs('LeadFieldPath'))

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

/** Every value some operator takes; which one fits which operator is in VALUE_SHAPES' messages. */
function valueSchema(schema: JSONSchema7) {
  const scalar: JSONSchema7 = { type: ['string', 'number', 'boolean'], maxLength: MAX_STRING_VALUE }
  delete schema.anyOf
  schema.oneOf = [scalar, { type: 'array', items: scalar, minItems: 1, maxItems: MAX_LIST_VALUES }]
}

const valueForOperator = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    const op = (field.parent as { op?: unknown } | undefined)?.op
    const shape = typeof op === 'string' ? VALUE_SHAPES[op as AudienceOperator] : undefined
    // An unknown operator is reported on `op`; there is nothing to check the value against.
    if (shape && !shape.check(value)) {
      field.report(shape.message, 'criterion_value', field)
    }
  },
  { toJSONSchema: valueSchema }
)

export const ruleAction = () => vine.enum(RULE_ACTIONS).use(documentedAs('RuleAction'))

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
  return strictObject(options.action ? { ...properties, action: ruleAction() } : properties).use(
    documentedAs(options.action ? 'QualityCriterion' : 'RoutingCriterion')
  )
}

const alwaysTrue = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (value !== true) {
      field.report(
        'Consent is always required: a lead without valid consent is blocked.',
        'consent_required',
        field
      )
    }
  },
  {
    toJSONSchema: (schema) => {
      delete schema.type
      schema.const = true
    },
  }
)

/** The rules document (PUT /v1/publishers/{id}/quality-rules), also tried out unsaved in a preview. */
export const qualityRulesSchema = strictObject({
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
    scope: vine.enum(DUPLICATE_SCOPES).optional(),
  }).optional(),
}).use(documentedAs('QualityRules'))

export const qualityRulesValidator = vine.create(qualityRulesSchema)

/**
 * A sample lead, shaped as POST /v1/leads takes it (its `publisher` may be
 * left out: it is the one in the path), and the rules to try on it; without
 * them, the publisher's current rules.
 */
export const previewQualityRulesValidator = vine.create(
  strictObject({
    rules: qualityRulesSchema.clone().optional(),
    lead: leadFieldsSchema,
  })
)
