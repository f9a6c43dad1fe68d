import type ApiKey from '#models/api_key'
import type OauthClient from '#models/oauth_client'

/** The public face of an API key or OAuth client: everything but the secret. */
export function credentialScopeToJson(credential: ApiKey | OauthClient) {
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
    created_at: credential.createdAt.toUTC().toISO(),
    last_used_at: credential.lastUsedAt?.toUTC().toISO() ?? null,
    revoked_at: credential.revokedAt?.toUTC().toISO() ?? null,
  }
}

/** An API key in a list: its scope and the hint that recognises it, never the key. */
export function apiKeyToJson(apiKey: ApiKey) {
  return { ...credentialScopeToJson(apiKey), hint: apiKey.hint, scope: apiKey.scope ?? null }
}

/** An OAuth client in a list: its scope and public client id, never the secret. */
export function oauthClientToJson(client: OauthClient) {
  return { ...credentialScopeToJson(client), client_id: client.clientId }
}
