import vine from '@vinejs/vine'
import { IANAZone } from 'luxon'
import type { FieldContext } from '@vinejs/vine/types'
import {
  cents,
  currency,
  documentedAs,
  environment,
  flag,
  integer,
  returnWindow,
  pagination,
  slug,
  strictObject,
  uuid,
} from '#validators/helpers'
import { audienceCriterion } from '#validators/quality_rules'
import { MAX_CRITERIA } from '#services/quality/quality_rules'
import { WEEKDAYS } from '#services/routing/schedule'

const ianaZone = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !IANAZone.isValidZone(value)) {
    field.report('Use an IANA time zone, e.g. Europe/Amsterdam.', 'timezone', field)
  }
})

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/
/** "24:00" closes a window at midnight; a window across midnight is two windows. */
const windowEndsAfterStart = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    const from = (field.parent as { from?: unknown } | undefined)?.from
    if (typeof value === 'string' && typeof from === 'string' && TIME.test(from) && value <= from) {
      field.report(
        '"to" must be later than "from" on the same day; split a window across midnight in two.',
        'window_order',
        field
      )
    }
  }
)

const schedule = () =>
  strictObject({
    timezone: vine.string().maxLength(64).use(ianaZone()),
    windows: vine
      .array(
        strictObject({
          days: vine.array(vine.enum(WEEKDAYS)).notEmpty().distinct(),
          from: vine.string().regex(TIME),
          to: vine
            .string()
            .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/)
            .use(windowEndsAfterStart()),
        })
      )
      .notEmpty()
      .maxLength(50),
  }).use(documentedAs('Schedule'))

const positiveCount = () => integer().range([1, 1_000_000_000])
/** Money caps in cents; a counter is a Postgres integer, so at most €20,000,000 a period. */
const spendCap = () => integer().range([1, 2_000_000_000])

/** Every cap a rule may have; buyers set them too (their own volume and budget). */
const caps = () =>
  strictObject({
    hourly: positiveCount().optional(),
    daily: positiveCount().optional(),
    monthly: positiveCount().optional(),
    daily_spend_cents: spendCap().optional(),
    monthly_spend_cents: spendCap().optional(),
  }).use(documentedAs('Caps'))

/** Criteria as target-audience rules have them, without an action: a lead meets them or not. */
const criteriaList = () => vine.array(audienceCriterion({ action: false })).maxLength(MAX_CRITERIA)

/** `active` sells; `paused` sells nothing until it is active again (the same as `enabled`). */
const ruleStatus = () => vine.enum(['active', 'paused'] as const)

/**
 * Fields of a rule; every one optional so PATCH can reuse them. `schedule`
 * and the lists take null or [] to clear them.
 */
const ruleFields = {
  labels: vine.array(slug()).maxLength(100).distinct().optional(),
  publishers: vine.array(uuid().toLowerCase()).maxLength(500).distinct().optional(),
  criteria: criteriaList().optional(),
  buyer_criteria: criteriaList().optional(),
  caps: caps().optional(),
  schedule: schedule().nullable().optional(),
  status: ruleStatus().optional(),
  /** Where its sales go: one of its buyer's destinations; null sends Leadgate's webhook. */
  destination_id: uuid().toLowerCase().nullable().optional(),
  mode: vine.enum(['fixed', 'ping_post'] as const).optional(),
  exclusive: flag().optional(),
  reserve_cents: cents().nullable().optional(),
  payout_share_percent: integer().range([1, 100]).nullable().optional(),
  priority: integer().range([-1_000_000, 1_000_000]).optional(),
  weight: integer().range([1, 1000]).optional(),
  enabled: flag().optional(),
  return_window_hours: returnWindow().nullable().optional(),
  /**
   * Whose leads the rule sells: live ones or the sandbox's. Fixed once created (a rule's cap
   * counters and sales are one environment's): a PATCH may repeat it, and the service refuses
   * another value.
   */
  environment: environment().optional(),
}

export const createRoutingRuleValidator = vine.create(
  strictObject({
    buyer_id: uuid(),
    price_cents: cents(),
    payout_cents: cents(),
    currency: currency(),
    ...ruleFields,
  })
)

export const updateRoutingRuleValidator = vine.create(
  strictObject({
    buyer_id: uuid().optional(),
    price_cents: cents().optional(),
    payout_cents: cents().optional(),
    currency: currency().optional(),
    ...ruleFields,
  })
)

export const listRoutingRulesValidator = vine.create(
  strictObject({
    ...pagination,
    buyer_id: uuid().optional(),
    environment: environment().optional(),
  })
)

/** What a buyer may change of its own rules; anything else is the operator's (403 operator_only). */
export const BUYER_RULE_FIELDS = ['buyer_criteria', 'caps', 'schedule', 'status'] as const
