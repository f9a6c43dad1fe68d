import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

/** A portal sign-in, known by the digest of its session id. */
export default class UserSession extends compose(BaseModel, withUuid) {
  @column()
  declare userId: string

  @column({ serializeAs: null })
  declare sessionHash: string

  /** A coarse description ("Firefox on Windows"), never the raw header. */
  @column()
  declare userAgent: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime()
  declare lastSeenAt: DateTime

  @column.dateTime()
  declare revokedAt: DateTime | null
}
