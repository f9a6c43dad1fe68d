import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import ApiKey from '#models/api_key'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access_log_service'
import CredentialScopeService, { type ScopeInput } from '#services/credential_scope_service'
import { KEY_PREFIXES, digestOf, newSecret } from '#services/secret_token'

export type CreateApiKeyInput = ScopeInput & { name: string }

@inject()
export default class ApiKeyService {
  constructor(
    protected scopes: CredentialScopeService,
    protected accessLog: AccessLogService
  ) {}

  /** Returns the stored key and its secret; the secret exists nowhere else afterwards. */
  async create(principal: Principal, input: CreateApiKeyInput) {
    const scope = await this.scopes.resolve(principal, input)
    const secret = newSecret(KEY_PREFIXES[scope.environment])

    const apiKey = await db.transaction(async (trx) => {
      const created = await ApiKey.create(
        {
          name: input.name,
          ...scope,
          tokenHash: digestOf(secret),
          hint: `${secret.slice(0, KEY_PREFIXES[scope.environment].length + 4)}…`,
          createdBy: principal.actor,
        },
        { client: trx }
      )
      await this.accessLog.record(
        {
          actor: principal.actor,
          action: 'api_key.created',
          subjectType: 'api_key',
          subjectId: created.id,
          publisherId: created.publisherId,
          buyerId: created.buyerId,
          details: { permissions: scope.permissions, environment: scope.environment, allowed_ips: scope.allowedIps },
        },
        trx
      )
      return created
    })
    return { apiKey, secret }
  }

  /** The operator sees every key; a publisher only its own. */
  visibleTo(principal: Principal) {
    const query = ApiKey.query()
    if (!principal.isOperator) {
      query.where('publisher_id', principal.publisherId ?? '00000000-0000-0000-0000-000000000000')
    }
    return query
  }

  async list(principal: Principal) {
    return this.visibleTo(principal).orderBy('id', 'desc')
  }

  async findVisible(principal: Principal, id: string) {
    const apiKey = await this.visibleTo(principal).where('id', id).first()
    if (!apiKey) throw ApiProblem.notFound('API key')
    return apiKey
  }

  async revoke(principal: Principal, apiKey: ApiKey) {
    if (apiKey.revokedAt) return apiKey
    await db.transaction(async (trx) => {
      apiKey.useTransaction(trx)
      apiKey.revokedAt = DateTime.utc()
      await apiKey.save()
      await this.accessLog.record(
        {
          actor: principal.actor,
          action: 'api_key.revoked',
          subjectType: 'api_key',
          subjectId: apiKey.id,
          publisherId: apiKey.publisherId,
          buyerId: apiKey.buyerId,
        },
        trx
      )
    })
    return apiKey
  }
}
