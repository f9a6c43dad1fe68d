import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiKey from '#models/api_key'
import type OauthClient from '#models/oauth_client'
import { isoTime } from '#services/sql/timestamps'

/** The public face of an API key or OAuth client: everything but the secret. */
export default class CredentialTransformer<
  Credential extends ApiKey | OauthClient = ApiKey | OauthClient,
> extends BaseTransformer<Credential> {
  toObject() {
    const credential = this.resource
    return {
      id: credential.id,
      name: credential.name,
      owner: credential.ownerType,
      publisher_id: credential.publisherId,
      buyer_id: credential.buyerId,
      permissions: credential.permissions,
      environment: credential.environment,
      allowed_ips: credential.allowedIps,
      created_by: credential.createdBy,
      created_at: isoTime(credential.createdAt),
      last_used_at: isoTime(credential.lastUsedAt),
      revoked_at: isoTime(credential.revokedAt),
    }
  }
}
