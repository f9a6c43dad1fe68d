import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { pagination, slug, strictObject, periodBound, timestamp, uuid } from '#validators/helpers'
import { REVIEW_DECISIONS, REVIEW_REJECTED } from '#services/leads/lead_review_service'
import { LISTED_STATUSES } from '#services/leads/lead_presenter'
import { REASON_CODES } from '#services/quality/types'
import { CHANNELS } from '#services/intake/delivery_methods'

const text = (max = 200) => vine.string().trim().maxLength(max)

/**
 * Attributes are a flat bag of custom fields that target-audience rules read:
 * scalar values only, sensible keys, a bounded count.
 */
const flatAttributes = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return
  const entries = Object.entries(value)
  if (entries.length > 50) {
    field.report('At most 50 attributes are allowed.', 'max_attributes', field)
  }
  for (const [key, item] of entries) {
    const path = `${field.getFieldPath()}.${key}`
    const at = { ...field, getFieldPath: () => path }
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(key)) {
      field.report(
        'Attribute names are lower-case letters, digits and underscores.',
        'attribute_name',
        at
      )
    } else if (
      !['string', 'number', 'boolean'].includes(typeof item) ||
      (typeof item === 'string' && item.length > 500)
    ) {
      field.report(
        'Attribute values are strings (≤ 500 characters), numbers or booleans.',
        'attribute_value',
        at
      )
    } else if (typeof item === 'number' && !Number.isFinite(item)) {
      field.report('Attribute numbers must be finite.', 'attribute_value', at)
    }
  }
})

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
    country: vine
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/)
      .optional(),
  }),
  provenance: strictObject({
    source: text().optional(),
    campaign: text().optional(),
    landing_page: vine
      .string()
      .trim()
      .maxLength(2000)
      .url({ require_protocol: true, protocols: ['http', 'https'] })
      .optional(),
  }).optional(),
  consent: strictObject({
    given: vine.boolean({ strict: true }).optional(),
    text: vine.string().trim().maxLength(5000).optional(),
    timestamp: timestamp().optional(),
    ip: text(64).optional(),
  }).optional(),
  attributes: vine.record(vine.any()).use(flatAttributes()).optional(),
})

export const createLeadValidator = vine.create(leadSchema)

export const listLeadsValidator = vine.create({
  status: vine.enum(LISTED_STATUSES).optional(),
  publisher: slug().optional(),
  label: slug().optional(),
  environment: vine.enum(['live', 'sandbox'] as const).optional(),
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

/** /v1/requests comes from no-code tools: `publisher` may be left out and is taken from the key. */
export const createRequestValidator = vine.create(
  strictObject({ ...leadSchema.getProperties(), publisher: slug().optional() })
)

/** The operator's decision on a flagged lead; a rejection says why (the publisher reads it). */
export const reviewLeadValidator = vine.create(
  strictObject({
    decision: vine.enum(REVIEW_DECISIONS),
    reason: vine
      .string()
      .trim()
      .minLength(1)
      .maxLength(500)
      .optional()
      .requiredWhen('decision', '=', 'reject'),
  })
)
