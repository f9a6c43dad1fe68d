import Principal, { type PrincipalKind } from '#auth/principal'
import type User from '#models/user'

const KINDS: Record<User['role'], PrincipalKind> = {
  operator_admin: 'operator',
  compliance_officer: 'compliance',
  publisher_user: 'publisher',
  buyer_user: 'buyer',
  label_manager: 'label_manager',
}

const ACTOR_TYPES: Record<PrincipalKind, string> = {
  operator: 'operator',
  compliance: 'operator',
  publisher: 'publisher',
  buyer: 'buyer',
  label_manager: 'label_manager',
}

/** A portal user acts with the role the operator gave it, in the live environment. */
export function principalForUser(user: User) {
  const kind = KINDS[user.role]
  return new Principal(
    kind,
    new Set(user.permissions),
    'live',
    `${ACTOR_TYPES[kind]}:${user.id}`,
    user.publisherId,
    user.buyerId,
    `user:${user.id}`,
    kind === 'compliance' ? (user.scope ?? null) : null,
    kind === 'label_manager' ? user.labelId : null
  )
}
