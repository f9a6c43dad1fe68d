import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import {
  countryCode,
  documentedAs,
  environment,
  pagination,
  slug,
  strictObject,
  periodBound,
  requiredWhen,
  timestamp,
  uuid,
  webUrl,
} from '#validators/helpers'
import { REVIEW_DECISIONS, REVIEW_REJECTED } from '#services/leads/lead_review_service'
import { LISTED_STATUSES } from '#services/leads/lead_presenter'
import { REASON_CODES } from '#services/quality/types'
import { CHANNELS } from '#services/intake/delivery_methods'

const text = (max = 200) => vine.string().trim().maxLength(max)

/**
 * Attributes are a flat bag of custom fields that target-audience rules read:
 * scalar values only, sensible keys, a bounded count.
 */
const MAX_ATTRIBUTES = 50
const MAX_ATTRIBUTE_TEXT = 500
const ATTRIBUTE_NAME = /^[a-z][a-z0-9_]{0,63}$/

const flatAttributes = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return
    const entries = Object.entries(value)
    if (entries.length > MAX_ATTRIBUTES) {
      field.report(`At most ${MAX_ATTRIBUTES} attributes are allowed.`, 'max_attributes', field)
    }
    for (const [key, item] of entries) {
      const path = `${field.getFieldPath()}.${key}`
      const at = { ...field, getFieldPath: () => path }
      if (!ATTRIBUTE_NAME.test(key)) {
        field.report(
          'Attribute names are lower-case letters, digits and underscores.',
          'attribute_name',
          at
        )
      } else if (
        !['string', 'number', 'boolean'].includes(typeof item) ||
        (typeof item === 'string' && item.length > MAX_ATTRIBUTE_TEXT)
      ) {
        field.report(
          `Attribute values are strings (≤ ${MAX_ATTRIBUTE_TEXT} characters), numbers or booleans.`,
          'attribute_value',
          at
        )
      } else if (typeof item === 'number' && !Number.isFinite(item)) {
        field.report('Attribute numbers must be finite.', 'attribute_value', at)
      }
    }
  },
  {
    toJSONSchema: (schema) => {
      schema.maxProperties = MAX_ATTRIBUTES
      schema.propertyNames = { pattern: ATTRIBUTE_NAME.source }
      schema.additionalProperties = {
        type: ['string', 'number', 'boolean'],
        maxLength: MAX_ATTRIBUTE_TEXT,
      }
    },
  }
)

/** Where a lead came from: a lead's and a ping's. */
export const provenance = () =>
  strictObject({
    source: text().optional(),
    campaign: text().optional(),
    landing_page: webUrl(2000, ['http', 'https']).optional(),
  }).use(documentedAs('Provenance'))

/** A lead's (and a ping's) custom fields. */
export const attributes = () =>
  vine.record(vine.any()).use(flatAttributes()).use(documentedAs('Attributes'))

/**
 * The shape of a lead. Presence of individual contact fields, consent and the
 * validity of phones, e-mails and postal codes are quality rules: a lead that
 * fails them is stored as rejected with reasons, not refused as malformed.
 */
export const leadSchema = strictObject({
  publisher: slug(),
  contact: strictObject({
    name: text().optional(),
    email: text(254).optional(),
    phone: text(32).optional(),
    postal_code: text(16).optional(),
    country: countryCode().optional(),
  }).use(documentedAs('Contact')),
  provenance: provenance().optional(),
  consent: strictObject({
    given: vine.boolean({ strict: true }).optional(),
    text: vine.string().trim().maxLength(5000).optional(),
    timestamp: timestamp().optional(),
    ip: text(64).optional(),
  })
    .use(documentedAs('Consent'))
    .optional(),
  attributes: attributes().optional(),
  /** The ping this lead was offered on (`POST /v1/pings`): it sells at that offer's payout. */
  ping_id: vine.string().trim().minLength(1).maxLength(1000).optional(),
})

export const createLeadValidator = vine.create(leadSchema)

export const listLeadsValidator = vine.create({
  status: vine.enum(LISTED_STATUSES).optional(),
  publisher: slug().optional(),
  label: slug().optional(),
  environment: environment().optional(),
  from: periodBound().optional(),
  to: periodBound().optional(),
  /** `true`: accepted leads not (yet) sold; `false`: sold leads. */
  unsold: vine.boolean().optional(),
  /** Operator only: leads sold to this buyer. */
  buyer_id: uuid().optional(),
  reason: vine.enum([...REASON_CODES, REVIEW_REJECTED] as const).optional(),
  channel: vine.enum(CHANNELS).optional(),
  /** `csv`: every visible lead, streamed (the pages are read as it goes). */
  format: vine.enum(['json', 'csv'] as const).optional(),
  ...pagination,
})

/**
 * A lead whose `publisher` may be left out: /v1/requests comes from no-code tools (it is the key's
 * publisher), and a quality-rules preview names its publisher in the path.
 */
export const leadFieldsSchema = strictObject({
  ...leadSchema.getProperties(),
  publisher: slug().optional(),
}).use(documentedAs('LeadFields'))

export const createRequestValidator = vine.create(leadFieldsSchema)

/** The operator's decision on a flagged lead; a rejection says why (the publisher reads it). */
export const reviewLeadValidator = vine.create(
  strictObject({
    decision: vine.enum(REVIEW_DECISIONS),
    reason: requiredWhen(vine.string().trim().minLength(1).maxLength(500), 'decision', 'reject'),
  })
)
