import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

/** One consent wording a form has shown; never changed, only followed by a newer version. */
export default class FormConsentVersion extends compose(BaseModel, withUuid) {
  @column()
  declare formId: string

  @column()
  declare version: number

  @column()
  declare text: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
