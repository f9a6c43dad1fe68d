import vine from '@vinejs/vine'
import {
  cents,
  currency,
  email,
  integer,
  name,
  pagination,
  returnWindow,
  strictObject,
} from '#validators/helpers'

export const createBuyerValidator = vine.create(
  strictObject({
    name: name(),
    contact_email: email(),
    return_window_hours: returnWindow().optional(),
  })
)

/** A paused buyer gets no new matches; its routing rules stay as they are for when it resumes. */
export const updateBuyerValidator = vine.create(
  strictObject({
    name: name().optional(),
    contact_email: email().optional(),
    status: vine.enum(['active', 'paused'] as const).optional(),
    return_window_hours: returnWindow().optional(),
    duplicate_window_days: integer().range([1, 365]).nullable().optional(),
    /** The operator's alone: how the buyer pays (DESIGN §16). */
    billing: strictObject({
      mode: vine.enum(['prepaid', 'credit'] as const),
      credit_limit_cents: cents().optional(),
      currency: currency(),
    }).optional(),
  })
)

/** Money the buyer paid in, recorded by the operator. */
export const topUpValidator = vine.create(
  strictObject({
    amount_cents: vine.number({ strict: true }).withoutDecimals().range([1, 100_000_000]),
    reference: vine.string().trim().minLength(1).maxLength(140),
    currency: currency().optional(),
  })
)

export const fundsQueryValidator = vine.create(strictObject({ currency: currency().optional() }))

export const listBuyersValidator = vine.create(strictObject({ ...pagination }))
