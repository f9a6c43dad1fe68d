import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

export type DestinationKind = 'webhook' | 'http' | 'email' | 'crm'

/**
 * How one buyer takes leads (docs/selling.md): Leadgate's own `match.found` webhook, a post into
 * the buyer's own system, an e-mail, or the buyer's own CRM through a plugin. `config` holds the
 * kind's settings as the API takes them, less the secrets, which are sealed apart.
 */
export default class Destination extends compose(BaseModel, withUuid) {
  @column()
  declare buyerId: string

  @column()
  declare name: string

  @column()
  declare kind: DestinationKind

  @column({ prepare: (value) => JSON.stringify(value) })
  declare config: Record<string, any>

  @column({ serializeAs: null })
  declare secrets: string | null

  @column({ serializeAs: null })
  declare signingSecret: string | null

  @column()
  declare status: 'enabled' | 'disabled'

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
