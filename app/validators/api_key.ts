import vine from '@vinejs/vine'
import {
  cidr,
  complianceScope,
  environment,
  flag,
  name,
  pagination,
  permissions,
  strictObject,
  uuid,
} from '#validators/helpers'

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
    // An auditor's read-only key (operator only), optionally narrowed like a compliance officer.
    compliance: flag().optional(),
    scope: complianceScope().optional(),
  })
)

/** The portal's keys page: one cursor for its API keys, one for its OAuth clients. */
export const keysPageValidator = vine.create(
  strictObject({
    cursor: pagination.cursor,
    clients_cursor: pagination.cursor,
  })
)
