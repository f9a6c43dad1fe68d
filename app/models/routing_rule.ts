import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import type { AudienceCriterion } from '#services/quality/quality_rules'
import type { Environment } from '#auth/principal'

export type Caps = { daily?: number; monthly?: number }
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

  /** Which leads it sells: live ones, or the sandbox's (docs/sandbox.md). */
  @column()
  declare environment: Environment

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
