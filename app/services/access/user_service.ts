import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import User, { type Role } from '#models/user'
import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { transaction } from '#services/sql/transaction'
import AccessLogService from '#services/access/access_log_service'
import { assertGrantable } from '#services/access/credential_scope_service'

export type CreateUserInput = {
  email: string
  password: string
  full_name?: string
  role: Role
  publisher_id?: string
  buyer_id?: string
  permissions?: Permission[]
}

export type UpdateUserInput = { role?: Role; permissions?: Permission[]; disabled?: boolean }

const NO_PUBLISHER = '00000000-0000-0000-0000-000000000000'

/**
 * Portal users. The operator manages everyone; a publisher manages its own
 * users (deliver, report or both) and can give no other role.
 */
@inject()
export default class UserService {
  constructor(protected accessLog: AccessLogService) {}

  visibleTo(principal: Principal) {
    const query = User.query()
    if (!principal.isOperator) query.where('publisher_id', principal.publisherId ?? NO_PUBLISHER)
    return query
  }

  async findVisible(principal: Principal, id: string) {
    const user = await this.visibleTo(principal).where('id', id).first()
    if (!user) throw ApiProblem.notFound('user')
    return user
  }

  async create(principal: Principal, input: CreateUserInput) {
    const owner = await this.resolveOwner(principal, input)
    const permissions = [...new Set<Permission>(input.permissions ?? ['read', 'submit'])]
    assertGrantable(principal, permissions, 'A user')
    const address = input.email.toLowerCase()
    if (await User.findBy('email', address)) {
      throw ApiProblem.conflict('email_taken', `A user with e-mail ${address} already exists.`)
    }
    return transaction(async (trx) => {
      const user = await User.create(
        {
          email: address,
          password: input.password,
          fullName: input.full_name ?? null,
          role: input.role,
          ...owner,
          permissions,
        },
        { client: trx }
      )
      await this.log(
        principal,
        user,
        'user.created',
        { role: user.role, permissions: user.permissions },
        trx
      )
      return user
    })
  }

  async update(principal: Principal, user: User, input: UpdateUserInput) {
    if (input.role && input.role !== user.role) {
      if (!principal.isOperator) {
        throw ApiProblem.forbidden('operator_only', 'Only the operator changes roles.')
      }
      if (input.role === 'publisher_user' || input.role === 'buyer_user') {
        throw ApiProblem.unprocessable([
          {
            field: 'role',
            code: 'role_change',
            message:
              'Publisher and buyer users are created for their owner; create a new user instead.',
          },
        ])
      }
    }
    const changes: Record<string, unknown> = {}
    return transaction(async (trx) => {
      user.useTransaction(trx)
      if (input.role && input.role !== user.role) {
        changes.role = { from: user.role, to: input.role }
        user.merge({ role: input.role, publisherId: null, buyerId: null })
      }
      if (input.permissions) {
        assertGrantable(principal, input.permissions, 'A user')
        changes.permissions = { from: user.permissions, to: [...new Set(input.permissions)] }
        user.permissions = [...new Set(input.permissions)]
      }
      if (input.disabled !== undefined && input.disabled !== Boolean(user.disabledAt)) {
        changes.disabled = input.disabled
        user.disabledAt = input.disabled ? DateTime.utc() : null
      }
      await user.save()
      if (Object.keys(changes).length > 0) {
        await this.log(
          principal,
          user,
          changes.role ? 'user.role_changed' : 'user.access_changed',
          changes,
          trx
        )
      }
      return user
    })
  }

  private async resolveOwner(principal: Principal, input: CreateUserInput) {
    if (!principal.isOperator) {
      if (
        input.role !== 'publisher_user' ||
        (input.publisher_id && input.publisher_id !== principal.publisherId)
      ) {
        throw ApiProblem.forbidden('operator_only', 'A publisher can only create users for itself.')
      }
      return { publisherId: principal.publisherId, buyerId: null }
    }
    if (input.role === 'publisher_user') {
      if (!(await Publisher.find(input.publisher_id!))) {
        throw ApiProblem.unprocessable([
          { field: 'publisher_id', code: 'exists', message: 'No publisher has this id.' },
        ])
      }
      return { publisherId: input.publisher_id!, buyerId: null }
    }
    if (input.role === 'buyer_user') {
      if (!(await Buyer.find(input.buyer_id!))) {
        throw ApiProblem.unprocessable([
          { field: 'buyer_id', code: 'exists', message: 'No buyer has this id.' },
        ])
      }
      return { publisherId: null, buyerId: input.buyer_id! }
    }
    return { publisherId: null, buyerId: null }
  }

  private log(
    principal: Principal,
    user: User,
    action: string,
    details: Record<string, unknown>,
    trx: TransactionClientContract
  ) {
    return this.accessLog.record(
      principal.actor,
      action,
      { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
      { details, trx }
    )
  }
}
