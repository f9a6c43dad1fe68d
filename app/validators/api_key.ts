import vine from '@vinejs/vine'
import { cidr, environment, name, permissions, strictObject, uuid } from '#validators/helpers'

export const credentialScope = {
  publisher_id: uuid().optional(),
  buyer_id: uuid().optional(),
  permissions: permissions(),
  environment: environment(),
  allowed_ips: vine.array(cidr()).maxLength(50).optional(),
}

export const createApiKeyValidator = vine.create(
  strictObject({
    name: name(),
    ...credentialScope,
  })
)
