import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import { withCredentialScope } from '#models/mixins/with_credential_scope'
import type { ComplianceScope } from '#services/access/compliance_scope'

export default class ApiKey extends compose(BaseModel, withUuid, withCredentialScope) {
  @column({ serializeAs: null })
  declare tokenHash: string

  /** The environment prefix and the first characters of the secret, to recognise a key in a list. */
  @column()
  declare hint: string

  /** A compliance key's limits, as a compliance officer's; null for every other owner. */
  @column()
  declare scope: ComplianceScope | null
}
