import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import {
  environment as liveOrSandbox,
  pagination,
  periodBound,
  slug,
  strictObject,
  uuid,
} from '#validators/helpers'
import { PAYOUT_STATUSES } from '#services/money/payout_service'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A calendar day that exists (2026-02-30 does not), from 2000 on. */
const calendarDay = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (typeof value !== 'string') return
    const day = new Date(`${value}T00:00:00Z`)
    if (
      !ISO_DATE.test(value) ||
      Number.isNaN(day.getTime()) ||
      day.toISOString().slice(0, 10) !== value ||
      value < '2000-01-01'
    ) {
      field.report('Use a calendar date, e.g. 2026-11-30.', 'date', field)
    }
  },
  { toJSONSchema: (schema) => void (schema.format = 'date') }
)

/** Which money: live (the default) or the sandbox's (docs/money.md, "Sandbox"). */
const environment = () => liveOrSandbox().optional()

/**
 * POST /v1/payout-runs: every label unless one is named, each for its last full period unless one
 * is named, paying live sales unless the sandbox is named.
 */
export const createPayoutRunValidator = vine.create(
  strictObject({
    label: slug().optional(),
    period_end: vine.string().trim().maxLength(10).use(calendarDay()).optional(),
    environment: environment(),
  })
)

/** GET /v1/payouts: the operator may name a publisher; anyone a status and an environment. */
export const listPayoutsValidator = vine.create(
  strictObject({
    publisher_id: uuid().optional(),
    status: vine.enum(PAYOUT_STATUSES).optional(),
    environment: environment(),
    ...pagination,
  })
)

/** The bank's (or the payment provider's) reference for the transfer. */
export const markPayoutPaidValidator = vine.create(
  strictObject({ reference: vine.string().trim().minLength(1).maxLength(200) })
)

/** Why the money did not arrive: the operator's words about a transfer, never about a consumer. */
export const markPayoutFailedValidator = vine.create(
  strictObject({ reason: vine.string().trim().minLength(1).maxLength(500) })
)

/** GET /v1/buyers/{id}/statement: a period (`to` exclusive) and a format beside `Accept`. */
export const statementValidator = vine.create(
  strictObject({
    from: periodBound().optional(),
    to: periodBound().optional(),
    format: vine.enum(['json', 'csv'] as const).optional(),
  })
)
