import type User from '#models/user'

export function userToJson(user: User) {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    role: user.role,
    publisher_id: user.publisherId,
    buyer_id: user.buyerId,
    permissions: user.permissions,
    disabled: user.disabledAt !== null,
    created_at: user.createdAt.toUTC().toISO(),
  }
}
