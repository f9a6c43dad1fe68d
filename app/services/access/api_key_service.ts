import { inject } from '@adonisjs/core'
import ApiKey from '#models/api_key'
import type Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import CredentialService from '#services/access/credential_service'
import CredentialScopeService, { type ScopeInput } from '#services/access/credential_scope_service'
import { transaction } from '#services/sql/transaction'
import { KEY_PREFIXES, digestOf, newSecret } from '#services/access/secret_token'
import { resolveComplianceScope } from '#services/access/compliance_scope'

export type CreateApiKeyInput = ScopeInput & { name: string }

@inject()
export default class ApiKeyService extends CredentialService<typeof ApiKey> {
  protected model = ApiKey
  protected subjectType = 'api_key' as const

  constructor(
    protected scopes: CredentialScopeService,
    protected accessLog: AccessLogService
  ) {
    super()
  }

  /** Returns the stored key and its secret; the secret exists nowhere else afterwards. */
  async create(principal: Principal, input: CreateApiKeyInput) {
    const scope = await this.scopes.resolve(principal, input)
    const audits =
      scope.ownerType === 'compliance' ? await resolveComplianceScope(input.scope) : null
    const prefix = KEY_PREFIXES[scope.environment]
    const secret = newSecret(prefix)

    const apiKey = await transaction(async (trx) => {
      const created = await ApiKey.create(
        {
          name: input.name,
          ...scope,
          tokenHash: digestOf(secret),
          hint: `${secret.slice(0, prefix.length + 4)}…`,
          createdBy: principal.actor,
          scope: audits,
        },
        { client: trx }
      )
      await this.logGrant(principal, created, trx)
      return created
    })
    return { apiKey, secret }
  }
}
