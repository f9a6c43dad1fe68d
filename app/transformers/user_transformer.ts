import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'
import type { UserActivity } from '#services/access/user_activity'
import { isoTime } from '#services/sql/timestamps'

const NO_ACTIVITY: UserActivity = { last_sign_in_at: null, invitation_pending: false }

export default class UserTransformer extends BaseTransformer<User> {
  /**
   * `activity`: each user's last sign-in and open invitation (userActivity); `ownerNames`: the
   * publisher, buyer or label each belongs to, by name. Both for the portal's list of users.
   */
  constructor(
    user: User,
    protected activity?: ReadonlyMap<string, UserActivity>,
    protected ownerNames?: ReadonlyMap<string, string>
  ) {
    super(user)
  }

  toObject() {
    const user = this.resource
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
      created_at: isoTime(user.createdAt),
    }
  }

  /** The portal's list of users: its last sign-in, a pending invitation, whose user it is. */
  withActivity() {
    const user = this.resource
    const owner = user.publisherId ?? user.buyerId ?? user.labelId ?? ''
    return {
      ...this.toObject(),
      ...(this.activity?.get(user.id) ?? NO_ACTIVITY),
      owner_name: this.ownerNames?.get(owner) ?? null,
    }
  }
}
