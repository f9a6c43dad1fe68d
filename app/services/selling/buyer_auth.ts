import { createHash } from 'node:crypto'
import * as oauth from 'oauth4webapi'
import type { DestinationSecrets, StoredAuth } from '#services/selling/http_destination'

/** What stands for a secret wherever a request is shown. */
export const MASK = '••••'

type OAuth2 = Extract<StoredAuth, { type: 'oauth2' }>

/** A request that could not be authorised; `code` is stable, the message names no secret. */
export class AuthFailure extends Error {
  constructor(
    readonly code: 'missing_secret' | 'oauth_token_failed',
    message: string
  ) {
    super(message)
  }
}

/** How a token request reaches the buyer's token endpoint (the guarded sender, in production). */
export type TokenFetch = NonNullable<
  oauth.HttpRequestOptions<'POST', URLSearchParams>[typeof oauth.customFetch]
>

type Issued = { access_token: string; expires_in?: number }

/**
 * OAuth 2.0 access tokens by destination, in process memory: each worker
 * asks the buyer's token endpoint for itself, once per token lifetime, and
 * posts waiting for the same token share one request. Tokens never leave
 * this map (not logged, not stored, not shown).
 */
export class OAuthTokens {
  private cached = new Map<string, { token: string; until: number }>()
  private pending = new Map<string, Promise<string>>()

  constructor(
    private now: () => number = Date.now,
    private maxEntries = 10_000
  ) {}

  async get(key: string, obtain: () => Promise<Issued>): Promise<string> {
    const hit = this.cached.get(key)
    if (hit && hit.until > this.now()) return hit.token
    let waiting = this.pending.get(key)
    if (!waiting) {
      waiting = obtain()
        .then((issued) => {
          this.remember(key, issued)
          return issued.access_token
        })
        .finally(() => this.pending.delete(key))
      this.pending.set(key, waiting)
    }
    return waiting
  }

  /** The buyer refused `token` (401): drop it, unless another post already replaced it. */
  forget(key: string, token: string) {
    if (this.cached.get(key)?.token === token) this.cached.delete(key)
  }

  private remember(key: string, issued: Issued) {
    // No lifetime given: five minutes. A minute's margin, or half of a short lifetime.
    const lifetime = issued.expires_in ?? 300
    const usable = lifetime > 120 ? lifetime - 60 : lifetime / 2
    if (this.cached.size >= this.maxEntries) this.cached.clear()
    this.cached.set(key, { token: issued.access_token, until: this.now() + usable * 1000 })
  }
}

/** One cache entry per destination and credentials: a changed secret or scope is a new token. */
export function tokenKey(destinationId: string, auth: OAuth2, clientSecret: string) {
  const digest = createHash('sha256')
    .update(
      JSON.stringify([auth.token_url, auth.client_id, auth.scope, auth.audience, clientSecret])
    )
    .digest('hex')
  return `${destinationId}:${digest}`
}

/** Client credentials (RFC 6749 §4.4), the secret sent as HTTP Basic (§2.3.1, which every server takes). */
async function requestToken(
  auth: OAuth2,
  clientSecret: string,
  options: { fetch: TokenFetch; allowHttp: boolean }
): Promise<Issued> {
  const server: oauth.AuthorizationServer = {
    issuer: new URL(auth.token_url).origin,
    token_endpoint: auth.token_url,
  }
  const client: oauth.Client = { client_id: auth.client_id }
  const parameters = new URLSearchParams()
  if (auth.scope) parameters.set('scope', auth.scope)
  if (auth.audience) parameters.set('audience', auth.audience)
  try {
    const response = await oauth.clientCredentialsGrantRequest(
      server,
      client,
      oauth.ClientSecretBasic(clientSecret),
      parameters,
      { [oauth.customFetch]: options.fetch, [oauth.allowInsecureRequests]: options.allowHttp }
    )
    const issued = await oauth.processClientCredentialsResponse(server, client, response)
    return { access_token: issued.access_token, expires_in: issued.expires_in }
  } catch (error) {
    const status = (error as { status?: number }).status
    const why = status ? `answered ${status}` : ((error as { code?: string }).code ?? 'failed')
    throw new AuthFailure('oauth_token_failed', `The token endpoint ${why}.`)
  }
}

export type Credentials = {
  headers: Record<string, string>
  query: [string, string][]
  /** The same, each secret replaced by MASK. */
  shown: { headers: Record<string, string>; query: [string, string][] }
  /** Set for OAuth 2.0: what to forget when the buyer answers 401. */
  oauth: { key: string; token: string } | null
}

const NONE: Credentials = { headers: {}, query: [], shown: { headers: {}, query: [] }, oauth: null }

function secretOf(secrets: DestinationSecrets, field: keyof DestinationSecrets) {
  const secret = secrets[field]
  if (!secret) throw new AuthFailure('missing_secret', `The destination has no ${field} stored.`)
  return secret
}

/** The headers and query parameters that authenticate one request to the buyer. */
export async function credentialsFor(
  destination: { id: string; auth: StoredAuth | undefined; secrets: DestinationSecrets },
  deps: { tokens: OAuthTokens; fetch: TokenFetch; allowHttp: boolean }
): Promise<Credentials> {
  const { auth, secrets } = destination
  const header = (name: string, value: string, shown: string): Credentials => ({
    headers: { [name]: value },
    query: [],
    shown: { headers: { [name]: shown }, query: [] },
    oauth: null,
  })
  switch (auth?.type ?? 'none') {
    case 'basic': {
      const { username } = auth as Extract<StoredAuth, { type: 'basic' }>
      const pair = Buffer.from(`${username}:${secretOf(secrets, 'password')}`).toString('base64')
      return header('authorization', `Basic ${pair}`, `Basic ${MASK}`)
    }
    case 'bearer':
      return header('authorization', `Bearer ${secretOf(secrets, 'token')}`, `Bearer ${MASK}`)
    case 'header':
      return header((auth as { name: string }).name, secretOf(secrets, 'value'), MASK)
    case 'query': {
      const name = (auth as { name: string }).name
      return {
        headers: {},
        query: [[name, secretOf(secrets, 'value')]],
        shown: { headers: {}, query: [[name, MASK]] },
        oauth: null,
      }
    }
    case 'oauth2': {
      const oauth2 = auth as OAuth2
      const clientSecret = secretOf(secrets, 'client_secret')
      const key = tokenKey(destination.id, oauth2, clientSecret)
      const token = await deps.tokens.get(key, () => requestToken(oauth2, clientSecret, deps))
      return {
        ...header('authorization', `Bearer ${token}`, `Bearer ${MASK}`),
        oauth: { key, token },
      }
    }
    default:
      return NONE
  }
}
