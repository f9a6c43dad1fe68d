import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type Principal from '#auth/principal'
import type ApiKey from '#models/api_key'
import type OauthClient from '#models/oauth_client'
import ApiProblem from '#exceptions/api_problem'
import { transaction } from '#services/sql/transaction'
import type AccessLogService from '#services/access/access_log_service'

type CredentialModel = typeof ApiKey | typeof OauthClient
const NO_PUBLISHER = '00000000-0000-0000-0000-000000000000'

/**
 * Listing, finding and revoking work the same for API keys and OAuth
 * clients: the operator sees all, a publisher or a buyer only its own.
 */
export default abstract class CredentialService<Model extends CredentialModel> {
  protected abstract model: Model
  protected abstract subjectType: 'api_key' | 'oauth_client'
  protected abstract accessLog: AccessLogService

  visibleTo(principal: Principal) {
    const query = this.model.query() as unknown as ModelQueryBuilderContract<
      Model,
      InstanceType<Model>
    >
    if (principal.kind === 'buyer') {
      query.where('buyer_id', principal.buyerId ?? NO_PUBLISHER)
    } else if (!principal.isOperator) {
      query.where('publisher_id', principal.publisherId ?? NO_PUBLISHER)
    }
    return query
  }

  async findVisible(principal: Principal, id: string) {
    const credential = await this.visibleTo(principal).where('id', id).first()
    if (!credential) throw ApiProblem.notFound(this.subjectType.replace('_', ' '))
    return credential
  }

  /** Takes effect on the next request: every request reads the credential from Postgres. */
  async revoke(principal: Principal, credential: InstanceType<Model>) {
    if (credential.revokedAt) return credential
    await transaction(async (trx) => {
      credential.useTransaction(trx)
      credential.revokedAt = DateTime.utc()
      await credential.save()
      await this.accessLog.record(
        principal.actor,
        `${this.subjectType}.revoked`,
        this.subjectOf(credential),
        { trx }
      )
    })
    return credential
  }

  private subjectOf(credential: InstanceType<Model>) {
    return {
      type: this.subjectType,
      id: credential.id,
      publisherId: credential.publisherId,
      buyerId: credential.buyerId,
    }
  }

  protected async logGrant(
    principal: Principal,
    credential: InstanceType<Model>,
    trx: TransactionClientContract
  ) {
    await this.accessLog.record(
      principal.actor,
      `${this.subjectType}.created`,
      this.subjectOf(credential),
      {
        details: {
          permissions: credential.permissions,
          environment: credential.environment,
          allowed_ips: credential.allowedIps,
          ...('scope' in credential && credential.scope ? { scope: credential.scope } : {}),
        },
        trx,
      }
    )
  }
}
