import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import Label from '#models/label'
import { withUuid } from '#models/mixins/with_uuid'
import type { QualityRules } from '#services/quality/quality_rules'

export type PublisherStatus = 'invited' | 'live' | 'paused'
export type DeliveryMethod = 'form' | 'api' | 'upload'

export default class Publisher extends compose(BaseModel, withUuid) {
  @column()
  declare slug: string

  @column()
  declare name: string

  @column()
  declare contactEmail: string

  @column()
  declare labelId: string | null

  @column()
  declare country: string

  @column()
  declare status: PublisherStatus

  @column()
  declare deliveryMethods: DeliveryMethod[]

  @column()
  declare schemaName: string

  @column()
  declare qualityRules: QualityRules

  /** Bumped by every save of the quality rules, so a confirmation names the rules it saw. */
  @column()
  declare qualityRulesVersion: number

  /** The version of the rules the publisher confirmed; stale once the rules change. */
  @column()
  declare rulesConfirmedVersion: number | null

  @column.dateTime()
  declare rulesConfirmedAt: DateTime | null

  @column.dateTime()
  declare goLiveRequestedAt: DateTime | null

  /** The first time the operator set it live: a paused publisher that went live before may resume. */
  @column.dateTime()
  declare wentLiveAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @belongsTo(() => Label)
  declare label: BelongsTo<typeof Label>
}
