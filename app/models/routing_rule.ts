import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import type { AudienceCriterion } from '#services/quality/quality_rules'
import type { Environment } from '#auth/principal'

/** Lead counts per hour, day and month, and money (integer cents) per day and month. */
export type Caps = {
  hourly?: number
  daily?: number
  monthly?: number
  daily_spend_cents?: number
  monthly_spend_cents?: number
}

/** `fixed`: posted at the rule's price; `ping_post`: the buyer bids in an auction first. */
export type SaleMode = 'fixed' | 'ping_post'
export type WeeklySchedule = {
  timezone: string
  windows: { days: string[]; from: string; to: string }[]
}

export default class RoutingRule extends compose(BaseModel, withUuid) {
  @column()
  declare buyerId: string

  @column()
  declare labelIds: string[]

  @column()
  declare publisherIds: string[]

  @column({ prepare: (value) => JSON.stringify(value) })
  declare criteria: AudienceCriterion[]

  @column()
  declare priceCents: number

  @column()
  declare payoutCents: number

  @column()
  declare currency: string

  /** Overrides the buyer's return window for leads this rule sells; null keeps the buyer's. */
  @column()
  declare returnWindowHours: number | null

  @column()
  declare caps: Caps

  @column()
  declare schedule: WeeklySchedule | null

  @column()
  declare priority: number

  @column()
  declare weight: number

  @column()
  declare enabled: boolean

  /** Where its sales go; null sends the buyer Leadgate's own `match.found` webhook. */
  @column()
  declare destinationId: string | null

  @column()
  declare mode: SaleMode

  /** An exclusive sale is the lead's only one; a shared one may sit beside others (label `max_sales`). */
  @column()
  declare exclusive: boolean

  /** ping_post: the lowest bid taken. */
  @column()
  declare reserveCents: number | null

  /** ping_post: the publisher's share of the clearing price, instead of `payoutCents`. */
  @column()
  declare payoutSharePercent: number | null

  /** The buyer's own filters: they narrow the operator's `criteria`, never widen them. */
  @column({ prepare: (value) => JSON.stringify(value) })
  declare buyerCriteria: AudienceCriterion[]

  /** Which leads it sells: live ones, or the sandbox's (docs/sandbox.md). */
  @column()
  declare environment: Environment

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
