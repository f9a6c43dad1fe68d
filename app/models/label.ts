import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'

import type { SaleSettingsInput } from '#services/routing/sale_settings'

export type Branding = { logo_url?: string; primary_color?: string }

export default class Label extends compose(BaseModel, withUuid) {
  @column()
  declare slug: string

  @column()
  declare name: string

  @column()
  declare branding: Branding

  /** The label's own host name, lower-case ASCII; requests arriving on it are branded with the label. */
  @column()
  declare customHost: string | null

  /** The language its hosted pages speak to consumers (see `forms/form_locales.ts`). */
  @column()
  declare locale: string

  /** The IANA zone its reports read days and months in (docs/reports.md). */
  @column()
  declare timeZone: string

  /** How its leads are sold (docs/selling.md); null keeps every default. */
  @column({ prepare: (value) => (value === null ? null : JSON.stringify(value)) })
  declare sale: SaleSettingsInput | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
