import vine from '@vinejs/vine'
import {
  countryCode,
  documentedAs,
  email,
  integer,
  name,
  pagination,
  slug,
  strictObject,
} from '#validators/helpers'

export const PUBLISHER_STATUSES = ['invited', 'live', 'paused'] as const
export const DELIVERY_METHODS = ['form', 'api', 'upload'] as const
/** A list's order: newest first by default, or by name (A to Z unless `order=desc`). */
export const PUBLISHER_SORTS = ['created', 'name'] as const

export const createPublisherValidator = vine.create(
  strictObject({
    slug: slug(),
    name: name(),
    contact_email: email(),
    label: slug().optional(),
    country: countryCode().optional(),
  })
)

/** `invited` is where a publisher starts, never where it is sent back to. */
export const updatePublisherValidator = vine.create(
  strictObject({
    name: name().optional(),
    status: vine.enum(['live', 'paused'] as const).optional(),
    delivery_methods: vine
      .array(vine.enum(DELIVERY_METHODS).use(documentedAs('DeliveryMethod')))
      .maxLength(DELIVERY_METHODS.length)
      .distinct()
      .optional(),
  })
)

export const listPublishersValidator = vine.create(
  strictObject({
    ...pagination,
    status: vine.enum(PUBLISHER_STATUSES).use(documentedAs('PublisherStatus')).optional(),
    label: slug().optional(),
    search: vine.string().trim().maxLength(100).optional(),
    sort: vine.enum(PUBLISHER_SORTS).optional(),
    order: vine.enum(['asc', 'desc'] as const).optional(),
  })
)

/** The rules version the publisher read (`onboarding.rules_version`); without it, the current one. */
export const confirmRulesValidator = vine.create(
  strictObject({
    rules_version: integer().range([0, 2_147_483_647]).optional(),
  })
)
