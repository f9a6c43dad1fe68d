import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { Environment } from '#auth/principal'

/** `compliance` owns API keys only: read-only auditors, never an endpoint or a client. */
export type OwnerType = 'operator' | 'publisher' | 'buyer' | 'compliance'

/**
 * Whom a row belongs to and in which environment: the columns every
 * owner-scoped resource (API keys, OAuth clients, webhook endpoints,
 * recoveries) filters by, so a caller finds only its own.
 */
export function withOwnerScope<Model extends NormalizeConstructor<typeof BaseModel>>(
  superclass: Model
) {
  class OwnerScope extends superclass {
    @column()
    declare ownerType: OwnerType

    @column()
    declare publisherId: string | null

    @column()
    declare buyerId: string | null

    @column()
    declare environment: Environment
  }
  return OwnerScope
}
