import vine from '@vinejs/vine'
import { email, integer, requiredIfMissing, strictObject } from '#validators/helpers'
import { PRIVACY_REQUEST_KINDS } from '#services/privacy/privacy_request_service'
import { RETENTION_FIELDS } from '#services/privacy/retention_policy_service'

/** A data-subject request names the person by e-mail, phone or both. */
export const privacyRequestValidator = vine.create(
  strictObject({
    kind: vine.enum(PRIVACY_REQUEST_KINDS),
    email: requiredIfMissing(email(), 'phone'),
    phone: requiredIfMissing(vine.string().trim().minLength(5).maxLength(32), 'email'),
  })
)

/** Days per data category, up to ten years; null keeps a category until erased on request. */
export const retentionValidator = vine.create(
  strictObject(
    Object.fromEntries(RETENTION_FIELDS.map((field) => [field, retentionDays()])) as Record<
      (typeof RETENTION_FIELDS)[number],
      ReturnType<typeof retentionDays>
    >
  )
)

function retentionDays() {
  return integer().range([1, 3650]).nullable()
}

/** Withdrawal takes no fields: who withdrew and when is recorded, never a reason in words. */
export const consentWithdrawalValidator = vine.create(strictObject({}))
