import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import moneyConfig from '#config/money'
import { DISPUTE_OUTCOMES } from '#services/money/settlement_policy_service'
import { DISPUTE_REASONS, DISPUTE_STATUSES } from '#services/money/dispute_rules'
import { environment, pagination, requiredWhen, strictObject, uuid } from '#validators/helpers'

/* eslint-disable-next-line no-control-regex */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

/**
 * A multipart answer's text reaches us after the input guard has run (its body is read in the
 * controller), so the text itself refuses what Postgres cannot store and no field of ours needs.
 */
const plainText = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && CONTROL_CHARACTERS.test(value)) {
    field.report('Control characters and null bytes are not allowed.', 'control_characters', field)
  }
})

const text = () =>
  vine.string().trim().minLength(1).maxLength(moneyConfig.disputes.maxTextLength).use(plainText())

/** A buyer returns a lead with a reason from the fixed list; `other` says why in `details`. */
export const openDisputeValidator = vine.create(
  strictObject({
    reason: vine.enum(DISPUTE_REASONS),
    details: requiredWhen(text(), 'reason', 'other'),
  })
)

/** The publisher's answer: its text (the files come beside it in a multipart body). */
export const respondToDisputeValidator = vine.create(strictObject({ text: text() }))

export const decideDisputeValidator = vine.create(
  strictObject({
    outcome: vine.enum(DISPUTE_OUTCOMES),
    note: text().optional(),
  })
)

/** `GET /v1/disputes`: a status; an environment (the caller's by default); the operator's publisher and buyer; a page. */
export const listDisputesValidator = vine.create(
  strictObject({
    status: vine.enum(DISPUTE_STATUSES).optional(),
    environment: environment().optional(),
    publisher_id: uuid().optional(),
    buyer_id: uuid().optional(),
    ...pagination,
  })
)

/** A withdrawal takes no input; a body with fields is refused rather than ignored. */
export const withdrawDisputeValidator = vine.create(strictObject({}))
