import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/** The operator manages every portal user; a publisher its own (scoped by the service). */
export default class UserPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.managesUsers(principal) ?? this.changeAllowed(principal, false)
  }

  create(principal: Principal) {
    return this.managesUsers(principal) ?? this.changeAllowed(principal, true)
  }

  update(principal: Principal) {
    return this.managesUsers(principal) ?? this.changeAllowed(principal, true)
  }

  /** A fresh invitation link for a user that has not chosen its password yet. */
  resendInvitation(principal: Principal) {
    return this.managesUsers(principal) ?? this.changeAllowed(principal, true)
  }

  private managesUsers(principal: Principal) {
    return this.onlyFor(
      principal,
      ['operator', 'publisher'],
      'forbidden',
      'Only the operator and publishers manage portal users.'
    )
  }
}
