import type ApiKey from '#models/api_key'
import CredentialTransformer from '#transformers/credential_transformer'

/** An API key in a list: its scope and the hint that recognises it, never the key. */
export default class ApiKeyTransformer extends CredentialTransformer<ApiKey> {
  toObject() {
    return { ...super.toObject(), hint: this.resource.hint, scope: this.resource.scope ?? null }
  }
}
