import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import type { QualityRules } from '#services/quality/quality_rules'

/** What a posting spec is built from: the publisher's rules and its default country. */
export type PostingSpecBasis = { rules: QualityRules; country: string }

export type PostingSpecChange = {
  kind: 'first' | 'rule_added' | 'rule_removed' | 'country' | 'api'
  text: string
}

/** One version of a publisher's posting spec; never changed, only followed by a newer one. */
export default class PostingSpecVersion extends compose(BaseModel, withUuid) {
  @column()
  declare publisherId: string

  @column()
  declare version: number

  @column()
  declare digest: string

  @column()
  declare basis: PostingSpecBasis

  @column()
  declare changes: PostingSpecChange[]

  @column.dateTime()
  declare announcedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
