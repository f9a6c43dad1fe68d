import vine from '@vinejs/vine'
import { cents, currency, integer, strictObject, uuid } from '#validators/helpers'
import { DISPUTE_OUTCOMES, PAYOUT_SCHEDULES } from '#services/money/settlement_policy_service'

export const showSettlementValidator = vine.create(
  strictObject({ publisher_id: uuid().optional() })
)

/** The whole policy: a PUT replaces it. Deadlines between an hour and 90 days. */
export const settlementPolicyValidator = vine.create(
  strictObject({
    payout_schedule: vine.enum(PAYOUT_SCHEDULES),
    minimum_payout_cents: cents(),
    response_hours: integer().range([1, 2160]),
    decision_hours: integer().range([1, 2160]),
    default_outcome: vine.enum(DISPUTE_OUTCOMES),
  })
)

/** A manual adjustment: at most a million in either direction (zero is refused by the service). */
export const adjustmentValidator = vine.create(
  strictObject({
    publisher_id: uuid(),
    amount_cents: integer().range([-100_000_000, 100_000_000]),
    currency: currency(),
    note: vine.string().trim().minLength(3).maxLength(500),
  })
)
