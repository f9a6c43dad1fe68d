import { DateTime } from 'luxon'
import hash from '@adonisjs/core/services/hash'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withAuthFinder } from '@adonisjs/auth/mixins/lucid'
import { withUuid } from '#models/mixins/with_uuid'
import type { Permission } from '#auth/principal'
import type { ComplianceScope } from '#services/access/compliance_scope'

/**
 * Portal roles. A publisher user delivers (submit), reports (read) or both;
 * the permissions column says which.
 */
export type Role =
  'operator_admin' | 'compliance_officer' | 'publisher_user' | 'buyer_user' | 'label_manager'

const AuthFinder = withAuthFinder(() => hash.use('scrypt'), {
  uids: ['email'],
  passwordColumnName: 'password',
})

export default class User extends compose(BaseModel, withUuid, AuthFinder) {
  @column()
  declare email: string

  @column({ serializeAs: null })
  declare password: string

  @column()
  declare fullName: string | null

  @column()
  declare role: Role

  @column()
  declare publisherId: string | null

  @column()
  declare buyerId: string | null

  /** A label manager's label (it reads that label's publishers only); null for every other role. */
  @column()
  declare labelId: string | null

  @column()
  declare permissions: Permission[]

  @column.dateTime()
  declare disabledAt: DateTime | null

  /** A compliance officer's limits (publishers, labels, period); null for every other role. */
  @column()
  declare scope: ComplianceScope | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
