import vine from '@vinejs/vine'
import { pagination, periodBound, strictObject, uuid } from '#validators/helpers'

/** `GET /v1/access-logs`: exact matches on the entry's columns, and a period of `created_at`. */
export const listAccessLogsValidator = vine.create(
  strictObject({
    ...pagination,
    actor: vine.string().trim().maxLength(100).optional(),
    action: vine.string().trim().maxLength(64).optional(),
    subject_type: vine.string().trim().maxLength(32).optional(),
    subject_id: uuid().optional(),
    publisher_id: uuid().optional(),
    from: periodBound().optional(),
    to: periodBound().optional(),
  })
)
