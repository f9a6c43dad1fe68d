import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import OauthClient from '#models/oauth_client'
import { withUuid } from '#models/mixins/with_uuid'
import type { Permission } from '#auth/principal'

export default class OauthAccessToken extends compose(BaseModel, withUuid) {
  @column()
  declare clientId: string

  @column({ serializeAs: null })
  declare tokenHash: string

  @column()
  declare scope: Permission[]

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @belongsTo(() => OauthClient, { foreignKey: 'clientId' })
  declare client: BelongsTo<typeof OauthClient>
}
