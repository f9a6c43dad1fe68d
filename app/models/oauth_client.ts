import { compose } from '@adonisjs/core/helpers'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withUuid } from '#models/mixins/with_uuid'
import { withCredentialScope } from '#models/mixins/with_credential_scope'

export default class OauthClient extends compose(BaseModel, withUuid, withCredentialScope) {
  @column()
  declare clientId: string

  @column({ serializeAs: null })
  declare secretHash: string
}
