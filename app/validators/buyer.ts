import vine from '@vinejs/vine'
import { email, name, pagination, strictObject } from '#validators/helpers'

export const createBuyerValidator = vine.create(
  strictObject({
    name: name(),
    contact_email: email(),
  })
)

export const listBuyersValidator = vine.create(strictObject({ ...pagination }))
