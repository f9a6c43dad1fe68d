import type OauthClient from '#models/oauth_client'
import CredentialTransformer from '#transformers/credential_transformer'

/** An OAuth client in a list: its scope and public client id, never the secret. */
export default class OauthClientTransformer extends CredentialTransformer<OauthClient> {
  toObject() {
    return { ...super.toObject(), client_id: this.resource.clientId }
  }
}
