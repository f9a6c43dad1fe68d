import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import User, { type Role } from '#models/user'
import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { transaction } from '#services/sql/transaction'
import AccessLogService from '#services/access/access_log_service'
import { assertGrantable } from '#services/access/credential_scope_service'
import { newSecret } from '#services/access/secret_token'
import UserInvitationService from '#services/access/user_invitation_service'
import {
  type ComplianceScope,
  type ComplianceScopeInput,
  resolveComplianceScope,
} from '#services/access/compliance_scope'

export type CreateUserInput = {
  email: string
  /** Without one, the user is invited by e-mail to choose it. */
  password?: string
  full_name?: string
  role: Role
  publisher_id?: string
  buyer_id?: string
  /** A label manager's label, by slug. */
  label?: string
  permissions?: Permission[]
  /** A compliance officer's limits; without them it audits everything. */
  scope?: ComplianceScopeInput
}

export type UpdateUserInput = {
  role?: Role
  permissions?: Permission[]
  disabled?: boolean
  /** null lifts a compliance officer's limits. */
  scope?: ComplianceScopeInput | null
}

const NO_PUBLISHER = '00000000-0000-0000-0000-000000000000'

/**
 * Portal users. The operator manages everyone; a publisher manages its own
 * users (deliver, report or both) and can give no other role.
 */
@inject()
export default class UserService {
  constructor(
    protected accessLog: AccessLogService,
    protected invitations: UserInvitationService
  ) {}

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
    const scope = await this.complianceScope(principal, input.role, input.scope)
    // A label manager reads; it never delivers or changes anything.
    const permissions =
      input.role === 'label_manager'
        ? (['read'] as Permission[])
        : [...new Set<Permission>(input.permissions ?? ['read', 'submit'])]
    assertGrantable(principal, permissions, 'A user')
    const address = input.email.toLowerCase()
    if (await User.findBy('email', address)) {
      throw ApiProblem.conflict('email_taken', `A user with e-mail ${address} already exists.`)
    }
    const created = await transaction(async (trx) => {
      const user = await User.create(
        {
          email: address,
          // An invited user's placeholder: random, never shown, so no password signs it in.
          password: input.password ?? newSecret('unset_'),
          fullName: input.full_name ?? null,
          role: input.role,
          ...owner,
          permissions,
          scope: scope ?? null,
        },
        { client: trx }
      )
      const invitation = input.password ? null : await this.invitations.issue(trx, user)
      await this.log(
        principal,
        user,
        'user.created',
        {
          role: user.role,
          permissions: user.permissions,
          ...(scope ? { scope } : {}),
          ...(invitation ? { invitation_id: invitation.id } : {}),
        },
        trx
      )
      return { user, invitation }
    })
    if (created.invitation) await this.invitations.send(created.user, created.invitation.url)
    return created.user
  }

  async update(principal: Principal, user: User, input: UpdateUserInput) {
    if (input.role && input.role !== user.role) {
      if (!principal.isOperator) {
        throw ApiProblem.forbidden('operator_only', 'Only the operator changes roles.')
      }
      if (['publisher_user', 'buyer_user', 'label_manager'].includes(input.role)) {
        throw ApiProblem.unprocessable([
          {
            field: 'role',
            code: 'role_change',
            message:
              'Publisher, buyer and label users are created for their owner; create a new user instead.',
          },
        ])
      }
    }
    const role = input.role ?? user.role
    const scope = await this.complianceScope(principal, role, input.scope)
    const changes: Record<string, unknown> = {}
    return transaction(async (trx) => {
      user.useTransaction(trx)
      if (input.role && input.role !== user.role) {
        changes.role = { from: user.role, to: input.role }
        user.merge({ role: input.role, publisherId: null, buyerId: null, labelId: null })
      }
      // Limits belong to a compliance officer: set with one, gone with the role.
      const nextScope =
        role !== 'compliance_officer' ? null : scope !== undefined ? scope : (user.scope ?? null)
      if (JSON.stringify(nextScope) !== JSON.stringify(user.scope ?? null)) {
        changes.scope = { from: user.scope ?? null, to: nextScope }
        user.scope = nextScope
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

  /** Only the operator sets limits, and only on a compliance officer. */
  private async complianceScope(
    principal: Principal,
    role: Role,
    input: ComplianceScopeInput | null | undefined
  ): Promise<ComplianceScope | null | undefined> {
    if (input === undefined) return undefined
    if (!principal.isOperator) {
      throw ApiProblem.forbidden('operator_only', "Only the operator sets a user's scope.", {
        field: 'scope',
      })
    }
    if (role !== 'compliance_officer' && input !== null) {
      throw ApiProblem.unprocessable([
        {
          field: 'scope',
          code: 'compliance_only',
          message: 'Only a compliance officer has a scope.',
        },
      ])
    }
    return resolveComplianceScope(input)
  }

  private async resolveOwner(principal: Principal, input: CreateUserInput) {
    if (!principal.isOperator) {
      if (
        input.role !== 'publisher_user' ||
        (input.publisher_id && input.publisher_id !== principal.publisherId)
      ) {
        throw ApiProblem.forbidden('operator_only', 'A publisher can only create users for itself.')
      }
      return { publisherId: principal.publisherId, buyerId: null, labelId: null }
    }
    if (input.role === 'publisher_user') {
      if (!(await Publisher.find(input.publisher_id!))) {
        throw ApiProblem.unprocessable([
          { field: 'publisher_id', code: 'exists', message: 'No publisher has this id.' },
        ])
      }
      return { publisherId: input.publisher_id!, buyerId: null, labelId: null }
    }
    if (input.role === 'buyer_user') {
      if (!(await Buyer.find(input.buyer_id!))) {
        throw ApiProblem.unprocessable([
          { field: 'buyer_id', code: 'exists', message: 'No buyer has this id.' },
        ])
      }
      return { publisherId: null, buyerId: input.buyer_id!, labelId: null }
    }
    if (input.role === 'label_manager') {
      const label = await Label.findBy('slug', input.label!)
      if (!label) {
        throw ApiProblem.unprocessable([
          { field: 'label', code: 'exists', message: 'No label has this slug.' },
        ])
      }
      return { publisherId: null, buyerId: null, labelId: label.id }
    }
    return { publisherId: null, buyerId: null, labelId: null }
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
