import vine from '@vinejs/vine'
import { countryCode, email, name, pagination, slug, strictObject } from '#validators/helpers'

export const PUBLISHER_STATUSES = ['invited', 'live', 'paused'] as const
export const DELIVERY_METHODS = ['form', 'api', 'upload'] as const

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
      .array(vine.enum(DELIVERY_METHODS))
      .maxLength(DELIVERY_METHODS.length)
      .distinct()
      .optional(),
  })
)

export const listPublishersValidator = vine.create(
  strictObject({
    ...pagination,
    status: vine.enum(PUBLISHER_STATUSES).optional(),
    label: slug().optional(),
  })
)
