import { inject } from '@adonisjs/core'
import User from '#models/user'
import Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import ApiKeyService from '#services/access/api_key_service'
import { transaction } from '#services/sql/transaction'
import AccessLogService from '#services/access/access_log_service'

export const SYSTEM_OPERATOR = new Principal(
  'operator',
  new Set(['read', 'submit']),
  'live',
  'system:cli'
)

/** Creates operator users; the first one bootstraps an installation. */
@inject()
export default class OperatorService {
  constructor(
    protected apiKeys: ApiKeyService,
    protected accessLog: AccessLogService
  ) {}

  async create(input: { email: string; password: string; fullName?: string }) {
    const email = input.email.trim().toLowerCase()
    if (await User.findBy('email', email)) {
      throw ApiProblem.conflict('email_taken', `A user with e-mail ${email} already exists.`)
    }
    const user = await transaction(async (trx) => {
      const created = await User.create(
        {
          email,
          password: input.password,
          fullName: input.fullName ?? null,
          role: 'operator_admin',
          permissions: ['read', 'submit'],
        },
        { client: trx }
      )
      await this.accessLog.record(
        SYSTEM_OPERATOR.actor,
        'user.created',
        { type: 'user', id: created.id },
        { details: { role: 'operator_admin' }, trx }
      )
      return created
    })
    const { secret } = await this.apiKeys.create(SYSTEM_OPERATOR, {
      name: `Operator key for ${email}`,
      permissions: ['read', 'submit'],
      environment: 'live',
    })
    return { user, apiKey: secret }
  }
}
