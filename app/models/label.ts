import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

export type Branding = { logo_url?: string; primary_color?: string }

export default class Label extends compose(BaseModel, withUuid) {
  @column()
  declare slug: string

  @column()
  declare name: string

  @column()
  declare branding: Branding

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
