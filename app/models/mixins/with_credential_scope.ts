import { DateTime } from 'luxon'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { Permission } from '#auth/principal'
import { withOwnerScope } from '#models/mixins/with_owner_scope'

/**
 * What an API key and an OAuth client have in common: whom they act for and
 * what they may do.
 */
export function withCredentialScope<Model extends NormalizeConstructor<typeof BaseModel>>(
  superclass: Model
) {
  class CredentialScope extends withOwnerScope(superclass) {
    @column()
    declare name: string

    @column()
    declare permissions: Permission[]

    @column()
    declare allowedIps: string[]

    @column()
    declare createdBy: string

    @column.dateTime()
    declare lastUsedAt: DateTime | null

    @column.dateTime()
    declare revokedAt: DateTime | null

    @column.dateTime({ autoCreate: true })
    declare createdAt: DateTime

    @column.dateTime({ autoCreate: true, autoUpdate: true })
    declare updatedAt: DateTime
  }
  return CredentialScope
}
