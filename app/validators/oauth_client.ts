import vine from '@vinejs/vine'
import { credentialScope } from '#validators/api_key'
import { name, strictObject } from '#validators/helpers'

export const createOauthClientValidator = vine.create(
  strictObject({
    name: name(),
    ...credentialScope,
  })
)
