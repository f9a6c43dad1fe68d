import { DateTime } from 'luxon'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import { withOwnerScope } from '#models/mixins/with_owner_scope'

export type RecoveryFilter = {
  since?: string
  until?: string
  status?: 'failed' | 'exhausted'
  type?: string
  endpoint_id?: string
  from?: string
  to?: string
}

/**
 * Tracked background work on deliveries: `recover` resends an endpoint's
 * failed deliveries over a window (and what it missed while disabled);
 * `retry` resends every delivery a filter selects.
 */
export default class WebhookRecovery extends compose(BaseModel, withUuid, withOwnerScope) {
  @column()
  declare kind: 'recover' | 'retry'

  @column()
  declare endpointId: string | null

  @column()
  declare filter: RecoveryFilter

  @column()
  declare trigger: 'manual' | 'probe'

  @column()
  declare status: 'queued' | 'running' | 'completed' | 'failed'

  @column()
  declare scheduled: number

  @column()
  declare error: string | null

  @column()
  declare requestedBy: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime()
  declare startedAt: DateTime | null

  @column.dateTime()
  declare completedAt: DateTime | null
}
