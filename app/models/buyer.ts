import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

export default class Buyer extends compose(BaseModel, withUuid) {
  @column()
  declare name: string

  @column()
  declare contactEmail: string

  /** How long after a sale the buyer may return the lead (a dispute); 0 makes a sale final at once. */
  @column()
  declare returnWindowHours: number

  @column()
  declare status: 'active' | 'paused'

  /** Never sold the same consumer twice within this many days (its fingerprints); null: no window. */
  @column()
  declare duplicateWindowDays: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
