import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import { withCredentialScope } from '#models/mixins/with_credential_scope'

export default class ApiKey extends compose(BaseModel, withUuid, withCredentialScope) {
  @column({ serializeAs: null })
  declare tokenHash: string

  /** The environment prefix and the first characters of the secret, to recognise a key in a list. */
  @column()
  declare hint: string
}
