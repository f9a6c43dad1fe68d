import { DateTime } from 'luxon'
import { BaseModel, column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import type { Environment } from '#auth/principal'
import WebhookAttempt from '#models/webhook_attempt'

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted'
export type Trigger = 'auto' | 'manual' | 'recover'

/** One event on its way to one endpoint; `unique(event_id, endpoint_id)`. */
export default class WebhookDelivery extends BaseModel {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare eventId: string

  @column()
  declare endpointId: string

  @column()
  declare eventType: string

  @column.dateTime()
  declare eventCreatedAt: DateTime

  @column()
  declare environment: Environment

  @column()
  declare orderingKey: string | null

  @column()
  declare status: DeliveryStatus

  @column()
  declare attemptCount: number

  @column()
  declare scheduleOffset: number

  @column()
  declare nextTrigger: Trigger

  @column.dateTime()
  declare nextAttemptAt: DateTime | null

  @column.dateTime()
  declare enqueuedAt: DateTime | null

  @column.dateTime()
  declare lockedUntil: DateTime | null

  @column.dateTime()
  declare lastAttemptAt: DateTime | null

  @column()
  declare lastStatusCode: number | null

  @column()
  declare lastError: string | null

  @column.dateTime()
  declare succeededAt: DateTime | null

  @column.dateTime()
  declare createdAt: DateTime

  @column.dateTime()
  declare updatedAt: DateTime

  @hasMany(() => WebhookAttempt, { foreignKey: 'deliveryId' })
  declare attempts: HasMany<typeof WebhookAttempt>
}
