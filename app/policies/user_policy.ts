import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny } from '#policies/operator_catalogue'

/** The operator manages every portal user; a publisher its own (scoped by the service). */
export default class UserPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return managesUsers(principal) ?? changeAllowed(principal, false)
  }

  create(principal: Principal) {
    return managesUsers(principal) ?? changeAllowed(principal, true)
  }

  update(principal: Principal) {
    return managesUsers(principal) ?? changeAllowed(principal, true)
  }

  /** A fresh invitation link for a user that has not chosen its password yet. */
  resendInvitation(principal: Principal) {
    return managesUsers(principal) ?? changeAllowed(principal, true)
  }
}

function managesUsers(principal: Principal) {
  if (principal.isOperator || principal.kind === 'publisher') return undefined
  return deny('forbidden', 'Only the operator and publishers manage portal users.')
}
