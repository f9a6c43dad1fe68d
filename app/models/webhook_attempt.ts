import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** One POST to an endpoint: what triggered it and how the receiver answered. */
export default class WebhookAttempt extends BaseModel {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare deliveryId: string | null

  @column()
  declare endpointId: string

  @column()
  declare attempt: number

  @column()
  declare trigger: 'auto' | 'manual' | 'recover' | 'probe'

  @column.dateTime()
  declare startedAt: DateTime

  @column()
  declare succeeded: boolean

  @column()
  declare statusCode: number | null

  @column()
  declare latencyMs: number

  @column()
  declare responseExcerpt: string | null

  @column()
  declare error: string | null

  @column()
  declare errorDetail: string | null
}
