import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import Publisher from '#models/publisher'
import FormConsentVersion from '#models/form_consent_version'
import { withUuid } from '#models/mixins/with_uuid'
import type { FormField } from '#services/forms/form_fields'

export default class Form extends compose(BaseModel, withUuid) {
  @column()
  declare publisherId: string

  @column()
  declare slug: string

  @column()
  declare title: string

  @column({ prepare: (value: FormField[]) => JSON.stringify(value) })
  declare fields: FormField[]

  @column()
  declare consentVersionId: string | null

  @column()
  declare thankYouUrl: string | null

  @column()
  declare embedOrigins: string[]

  @column()
  declare active: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @belongsTo(() => Publisher)
  declare publisher: BelongsTo<typeof Publisher>

  @belongsTo(() => FormConsentVersion, { foreignKey: 'consentVersionId' })
  declare consentVersion: BelongsTo<typeof FormConsentVersion>
}
