import vine from '@vinejs/vine'
import { email, name, pagination, returnWindow, strictObject } from '#validators/helpers'

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
  })
)

export const listBuyersValidator = vine.create(strictObject({ ...pagination }))
