import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

export default class Buyer extends compose(BaseModel, withUuid) {
  @column()
  declare name: string

  @column()
  declare contactEmail: string

  @column()
  declare status: 'active' | 'paused'

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
