import type User from '#models/user'

export function userToJson(user: User) {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    role: user.role,
    publisher_id: user.publisherId,
    buyer_id: user.buyerId,
    label_id: user.labelId ?? null,
    permissions: user.permissions,
    // A user just created has no disabled_at loaded yet: absent means enabled.
    disabled: Boolean(user.disabledAt),
    // A compliance officer's limits (null: everything, and for every other role).
    scope: user.scope ?? null,
    created_at: user.createdAt.toUTC().toISO(),
  }
}
