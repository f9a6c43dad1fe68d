import DataLoader from 'dataloader'
import { DateTime } from 'luxon'
import ApiKey from '#models/api_key'
import OauthAccessToken from '#models/oauth_access_token'
import type OauthClient from '#models/oauth_client'
import Principal, { type PrincipalKind } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import type { OwnerType } from '#models/mixins/with_owner_scope'
import { allows } from '#services/access/ip_allowlist'
import { digestOf, KEY_PREFIXES } from '#services/access/secret_token'

export const ACCESS_TOKEN_PREFIX = 'lg_at_'

const KINDS: Record<OwnerType, PrincipalKind> = {
  operator: 'operator',
  publisher: 'publisher',
  buyer: 'buyer',
  compliance: 'compliance',
}
const TOUCH_EVERY_SECONDS = 60

type Credential = Pick<
  ApiKey,
  | 'id'
  | 'ownerType'
  | 'publisherId'
  | 'buyerId'
  | 'permissions'
  | 'environment'
  | 'allowedIps'
  | 'revokedAt'
>

/**
 * Keys wanted during one turn of the event loop are read in one query: under
 * load, one round trip serves many requests. Nothing is cached between turns,
 * so a revocation still holds from the very next request.
 */
const apiKeysByDigest = new DataLoader<string, ApiKey | null>(
  async (digests) => {
    const found = await ApiKey.query().whereIn('token_hash', [...new Set(digests)])
    const byDigest = new Map(found.map((apiKey) => [apiKey.tokenHash, apiKey]))
    return digests.map((digest) => byDigest.get(digest) ?? null)
  },
  { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) }
)

/**
 * Turns a bearer secret into a Principal. Looked up in Postgres on every
 * request, so a revocation holds from the very next call.
 */
export default class CredentialAuthenticator {
  async authenticate(secret: string | undefined, ip: string): Promise<Principal> {
    if (!secret) {
      throw ApiProblem.unauthorized(
        'missing_credentials',
        'Send your API key as "Authorization: Bearer <key>".'
      )
    }
    if (secret.startsWith(ACCESS_TOKEN_PREFIX)) {
      return this.fromAccessToken(secret, ip)
    }
    if (!Object.values(KEY_PREFIXES).some((prefix) => secret.startsWith(prefix))) {
      throw invalid()
    }
    const apiKey = await apiKeysByDigest.load(digestOf(secret))
    if (!apiKey) throw invalid()
    this.assertUsable(apiKey, ip)
    await this.touch(apiKey)
    return toPrincipal(apiKey, `api_key:${apiKey.id}`, apiKey.permissions, apiKey.scope)
  }

  async fromAccessToken(secret: string, ip: string) {
    const token = await OauthAccessToken.query()
      .where('token_hash', digestOf(secret))
      .preload('client')
      .first()
    if (!token) throw invalid()
    if (token.expiresAt < DateTime.utc()) {
      throw ApiProblem.unauthorized(
        'token_expired',
        'This access token has expired; request a new one at /v1/oauth/token.'
      )
    }
    this.assertUsable(token.client, ip)
    await this.touch(token.client)
    return toPrincipal(token.client, `oauth_client:${token.client.id}`, token.scope)
  }

  assertUsable(credential: Credential, ip: string) {
    if (credential.revokedAt) {
      throw ApiProblem.unauthorized('credentials_revoked', 'These credentials have been revoked.')
    }
    if (!allows(credential.allowedIps, ip)) {
      throw ApiProblem.forbidden(
        'ip_not_allowed',
        `Requests from ${ip} are not on this key's IP allowlist.`
      )
    }
  }

  /** last_used_at is kept to the minute: one write per key per minute, not per request. */
  async touch(credential: ApiKey | OauthClient) {
    const now = DateTime.utc()
    if (
      credential.lastUsedAt &&
      now.diff(credential.lastUsedAt, 'seconds').seconds < TOUCH_EVERY_SECONDS
    ) {
      return
    }
    credential.lastUsedAt = now
    await credential.save()
  }
}

function toPrincipal(
  credential: Credential,
  actor: string,
  permissions: Credential['permissions'],
  scope: ApiKey['scope'] = null
) {
  return new Principal(
    KINDS[credential.ownerType],
    new Set(permissions),
    credential.environment,
    actor,
    credential.publisherId,
    credential.buyerId,
    credential.id,
    credential.ownerType === 'compliance' ? scope : null,
    null,
    credential.allowedIps ?? []
  )
}

function invalid() {
  return ApiProblem.unauthorized(
    'invalid_credentials',
    'This API key or access token is not valid.'
  )
}
