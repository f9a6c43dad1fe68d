import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import { withOwnerScope } from '#models/mixins/with_owner_scope'

export type EndpointStatus = 'enabled' | 'disabled' | 'paused'
export type DisabledReason = 'manual' | 'gone' | 'failing'

/** A receiver of events. `secret` and `previousSecret` hold ciphertext, never the secret itself. */
export default class WebhookEndpoint extends compose(BaseModel, withUuid, withOwnerScope) {
  @column()
  declare url: string

  /** A plugin installation's endpoint: the label whose events it hears, and the adapter that sends. */
  @column()
  declare labelId: string | null

  @column()
  declare plugin: string | null

  @column()
  declare description: string | null

  @column()
  declare events: string[]

  @column()
  declare status: EndpointStatus

  @column()
  declare fifo: boolean

  @column()
  declare rateLimitPerSecond: number | null

  @column({ serializeAs: null })
  declare secret: string

  @column({ serializeAs: null })
  declare previousSecret: string | null

  @column.dateTime()
  declare previousSecretExpiresAt: DateTime | null

  @column()
  declare disabledReason: DisabledReason | null

  @column.dateTime()
  declare disabledAt: DateTime | null

  @column.dateTime()
  declare failingSince: DateTime | null

  @column.dateTime()
  declare failingWarnedAt: DateTime | null

  @column.dateTime()
  declare lastSuccessAt: DateTime | null

  @column.dateTime()
  declare lastFailureAt: DateTime | null

  @column()
  declare consecutiveFailures: number

  @column.dateTime()
  declare pausedUntil: DateTime | null

  @column()
  declare circuitTrips: number

  @column.dateTime()
  declare circuitClosedAt: DateTime | null

  @column.dateTime()
  declare lastProbeAt: DateTime | null

  @column()
  declare createdBy: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
