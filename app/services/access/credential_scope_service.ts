import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type { Environment, Permission } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import type { OwnerType } from '#models/mixins/with_owner_scope'
import { containsBlock, normaliseCidr } from '#services/access/ip_allowlist'
import type { ComplianceScopeInput } from '#services/access/compliance_scope'

export type ScopeInput = {
  publisher_id?: string
  buyer_id?: string
  permissions: Permission[]
  environment: Environment
  allowed_ips?: string[]
  /** A read-only auditor's credential, owned by no publisher or buyer (operator only). */
  compliance?: boolean
  /** What a compliance credential may audit; see ComplianceScope. */
  scope?: ComplianceScopeInput
}

export type ResolvedScope = {
  ownerType: OwnerType
  publisherId: string | null
  buyerId: string | null
  permissions: Permission[]
  environment: Environment
  allowedIps: string[]
}

/**
 * Decides whom a new credential acts for and checks the grantor may give it:
 * the operator grants anything; a publisher only keys for itself, never
 * more permissions or another environment than its own.
 */
@inject()
export default class CredentialScopeService {
  async resolve(principal: Principal, input: ScopeInput): Promise<ResolvedScope> {
    const permissions = [...new Set(input.permissions)].sort() as Permission[]
    const allowedIps = [...new Set((input.allowed_ips ?? []).map(normaliseCidr))]
    assertWithinAllowlist(principal, allowedIps)
    const base = { permissions, environment: input.environment, allowedIps }

    if (input.compliance) return compliance(principal, input, base)
    if (input.scope) {
      throw ApiProblem.unprocessable([
        {
          field: 'scope',
          code: 'compliance_only',
          message: 'Only a compliance credential (`compliance: true`) has a scope.',
        },
      ])
    }
    if (principal.isOperator) {
      if (input.publisher_id) {
        const publisher = await Publisher.find(input.publisher_id)
        if (!publisher) throw unknownOwner('publisher_id', 'No publisher has this id.')
        return { ...base, ownerType: 'publisher', publisherId: publisher.id, buyerId: null }
      }
      if (input.buyer_id) {
        const buyer = await Buyer.find(input.buyer_id)
        if (!buyer) throw unknownOwner('buyer_id', 'No buyer has this id.')
        return { ...base, ownerType: 'buyer', publisherId: null, buyerId: buyer.id }
      }
      return { ...base, ownerType: 'operator', publisherId: null, buyerId: null }
    }

    if (principal.kind !== 'publisher') {
      throw ApiProblem.forbidden(
        'forbidden',
        'Only the operator and publishers manage credentials.'
      )
    }
    if (input.buyer_id || (input.publisher_id && input.publisher_id !== principal.publisherId)) {
      throw unknownOwner(
        input.buyer_id ? 'buyer_id' : 'publisher_id',
        'You can only create credentials for your own publisher.'
      )
    }
    assertGrantable(principal, permissions, 'A credential')
    if (principal.environment === 'sandbox' && input.environment === 'live') {
      throw ApiProblem.forbidden(
        'environment_not_allowed',
        'A sandbox credential cannot create live credentials.',
        { field: 'environment' }
      )
    }
    return { ...base, ownerType: 'publisher', publisherId: principal.publisherId, buyerId: null }
  }
}

/**
 * A credential bound to addresses gives no credential that reaches further: every block of the
 * new one must lie inside one of its own (none given is "anywhere", so it is refused too).
 */
function assertWithinAllowlist(principal: Principal, allowedIps: string[]) {
  if (principal.allowedIps.length === 0) return
  const inside = (block: string) => principal.allowedIps.some((own) => containsBlock(own, block))
  if (allowedIps.length > 0 && allowedIps.every(inside)) return
  throw ApiProblem.forbidden(
    'allowlist_not_allowed',
    `This credential may be used only from ${principal.allowedIps.join(', ')}: a credential it creates must be bound to those addresses or fewer (allowed_ips).`,
    { field: 'allowed_ips' }
  )
}

/** Compliance credentials read the audit trail for an auditor: the operator gives them, read only. */
function compliance(
  principal: Principal,
  input: ScopeInput,
  base: Pick<ResolvedScope, 'permissions' | 'environment' | 'allowedIps'>
): ResolvedScope {
  if (!principal.isOperator) {
    throw ApiProblem.forbidden(
      'operator_only',
      'Only the operator issues compliance credentials.',
      { field: 'compliance' }
    )
  }
  if (input.publisher_id || input.buyer_id) {
    throw ApiProblem.unprocessable([
      {
        field: input.buyer_id ? 'buyer_id' : 'publisher_id',
        code: 'compliance_owner',
        message:
          'A compliance credential belongs to no publisher or buyer; narrow it with `scope`.',
      },
    ])
  }
  if (base.permissions.some((permission) => permission !== 'read')) {
    throw ApiProblem.unprocessable([
      {
        field: 'permissions',
        code: 'read_only',
        message: 'A compliance credential reads only: use ["read"].',
      },
    ])
  }
  return { ...base, ownerType: 'compliance', publisherId: null, buyerId: null }
}

function unknownOwner(field: string, message: string) {
  return ApiProblem.unprocessable([{ field, code: 'exists', message }])
}

/** Nobody hands out more than it holds: a submit-only key makes no key or user who may read. */
export function assertGrantable(
  principal: Principal,
  permissions: readonly Permission[],
  grantee: 'A credential' | 'A user'
) {
  if (permissions.some((permission) => !principal.can(permission))) {
    throw ApiProblem.forbidden(
      'permission_escalation',
      `${grantee} cannot be given permissions its creator does not hold.`,
      { field: 'permissions' }
    )
  }
}
