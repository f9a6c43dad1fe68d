import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

/** What a link lets its holder do: choose a new password, or a first one. */
export type AccountTokenPurpose = 'password_reset' | 'invitation'

export default class AccountToken extends compose(BaseModel, withUuid) {
  @column()
  declare userId: string

  @column()
  declare purpose: AccountTokenPurpose

  @column({ serializeAs: null })
  declare tokenHash: string

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime()
  declare usedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
