import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Uploads are a publisher's way to deliver leads: its own keys and users
 * (and the operator, for any publisher) upload with `submit`, read with
 * `read`, and accept with `submit`. Which uploads a caller reaches (its own
 * publisher's, in its environment) is the service's call.
 */
export default class UploadPolicy extends BasePolicy {
  create(principal: Principal) {
    return this.deliverer(principal, 'submit')
  }

  view(principal: Principal) {
    return this.deliverer(principal, 'read')
  }

  accept(principal: Principal) {
    return this.deliverer(principal, 'submit')
  }

  private deliverer(principal: Principal, permission: Permission) {
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'publisher_only',
        'Uploads are for publisher and operator credentials.'
      ) ?? this.permitted(principal, permission)
    )
  }
}
