import { inject } from '@adonisjs/core'
import OauthClient from '#models/oauth_client'
import type Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import CredentialService from '#services/access/credential_service'
import CredentialScopeService, { type ScopeInput } from '#services/access/credential_scope_service'
import { transaction } from '#services/sql/transaction'
import { digestOf, newSecret } from '#services/access/secret_token'

export type CreateOauthClientInput = ScopeInput & { name: string }

/** OAuth 2.0 clients for the client-credentials grant, scoped exactly like API keys. */
@inject()
export default class OauthClientService extends CredentialService<typeof OauthClient> {
  protected model = OauthClient
  protected subjectType = 'oauth_client' as const

  constructor(
    protected scopes: CredentialScopeService,
    protected accessLog: AccessLogService
  ) {
    super()
  }

  async create(principal: Principal, input: CreateOauthClientInput) {
    const scope = await this.scopes.resolve(principal, input)
    const clientSecret = newSecret('lgcs_')
    const client = await transaction(async (trx) => {
      const created = await OauthClient.create(
        {
          name: input.name,
          ...scope,
          clientId: newSecret('lgc_').slice(0, 28),
          secretHash: digestOf(clientSecret),
          createdBy: principal.actor,
        },
        { client: trx }
      )
      await this.logGrant(principal, created, trx)
      return created
    })
    return { client, clientSecret }
  }
}
