import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class AccessLogEntry extends BaseModel {
  static table = 'access_log'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare actor: string

  @column()
  declare action: string

  @column()
  declare subjectType: string

  @column()
  declare subjectId: string

  @column()
  declare publisherId: string | null

  @column()
  declare buyerId: string | null

  @column()
  declare details: Record<string, unknown>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
