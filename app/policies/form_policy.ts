import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny } from '#policies/operator_catalogue'

/**
 * Hosted forms: a publisher manages its own (the service answers 404 for
 * others'), the operator any publisher's. Buyers and compliance officers
 * have none. A form is live configuration: sandbox credentials only read.
 */
export default class FormPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return may(principal, false)
  }

  view(principal: Principal) {
    return may(principal, false)
  }

  create(principal: Principal) {
    return may(principal, true)
  }

  update(principal: Principal) {
    return may(principal, true)
  }
}

function may(principal: Principal, change: boolean) {
  if (principal.kind !== 'publisher' && !principal.isOperator) {
    return deny('publisher_only', 'Forms belong to publishers and the operator.')
  }
  return changeAllowed(principal, change)
}
