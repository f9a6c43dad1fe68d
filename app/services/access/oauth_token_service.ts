import { DateTime } from 'luxon'
import OAuth2Server, {
  OAuthError,
  Request,
  Response,
  type ClientCredentialsModel,
} from '@node-oauth/oauth2-server'
import env from '#start/env'
import OauthClient from '#models/oauth_client'
import OauthAccessToken from '#models/oauth_access_token'
import type { Permission } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { allows } from '#services/access/ip_allowlist'
import { ACCESS_TOKEN_PREFIX } from '#services/access/credential_authenticator'
import { digestOf, digestsMatch, newSecret } from '#services/access/secret_token'

export const ACCESS_TOKEN_TTL_SECONDS = env.get('OAUTH_TOKEN_TTL_SECONDS') ?? 3600

type TokenRequest = { headers: Record<string, any>; body: Record<string, any>; ip: string }

/**
 * The client-credentials grant (RFC 6749 §4.4) through @node-oauth/oauth2-server.
 * Tokens carry the client's scope, or the subset of it the client asks for.
 */
export default class OauthTokenService {
  async issue(request: TokenRequest) {
    const server = new OAuth2Server({
      model: modelFor(request.ip),
      accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS,
    })
    const response = new Response()
    try {
      await server.token(
        // The body is already parsed; JSON is accepted as well as the form encoding
        // RFC 6749 names, because no-code HTTP modules often send only JSON.
        new Request({
          method: 'POST',
          query: {},
          headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: request.body,
        }),
        response,
        { requireClientAuthentication: { client_credentials: true } }
      )
    } catch (error) {
      if (error instanceof OAuthError) {
        throw new ApiProblem(
          error.code === 401 ? 401 : 400,
          error.name,
          'OAuth token request refused',
          error.message,
          {
            error: error.name,
            error_description: error.message,
          }
        )
      }
      throw error
    }
    const body = response.body as Record<string, unknown>
    return {
      access_token: body.access_token,
      token_type: 'Bearer',
      expires_in: body.expires_in,
      scope: body.scope,
    }
  }
}

function modelFor(ip: string): ClientCredentialsModel {
  return {
    async getClient(clientId, clientSecret) {
      if (typeof clientId !== 'string' || clientId.length > 64) return false
      const client = await OauthClient.findBy('client_id', clientId)
      if (
        !client ||
        client.revokedAt ||
        !digestsMatch(String(clientSecret ?? ''), client.secretHash)
      )
        return false
      if (!allows(client.allowedIps, ip)) return false
      return { id: client.id, grants: ['client_credentials'], record: client }
    },
    async getUserFromClient(client) {
      return { client: client.record }
    },
    async validateScope(_user, client, scope) {
      const granted = (client.record as OauthClient).permissions
      if (!scope || scope.length === 0) return granted
      return scope.every((item) => granted.includes(item as Permission)) ? scope : false
    },
    async generateAccessToken() {
      return newSecret(ACCESS_TOKEN_PREFIX)
    },
    async saveToken(token, client) {
      await OauthAccessToken.create({
        clientId: client.id,
        tokenHash: digestOf(token.accessToken),
        scope: (Array.isArray(token.scope) ? token.scope : []) as Permission[],
        expiresAt: DateTime.fromJSDate(token.accessTokenExpiresAt!).toUTC(),
      })
      return { ...token, client, user: {} }
    },
    async getAccessToken() {
      // Bearer tokens are checked by CredentialAuthenticator, not by this library.
      return false
    },
  }
}
