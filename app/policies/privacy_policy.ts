import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny, operatorMay } from '#policies/operator_catalogue'

/** Data-subject requests and retention periods are the operator's, the controller of the data. */
export default class PrivacyPolicy extends BasePolicy {
  fileRequest(principal: Principal) {
    return operatorMay(principal, true)
  }

  viewRequest(principal: Principal) {
    return operatorMay(principal, false)
  }

  viewRetention(principal: Principal) {
    return operatorMay(principal, false)
  }

  changeRetention(principal: Principal) {
    return operatorMay(principal, true)
  }

  /** A lead's publisher records a withdrawal it received; the operator any (the service scopes the lead). */
  withdrawConsent(principal: Principal) {
    if (principal.kind !== 'publisher' && !principal.isOperator) {
      return deny('forbidden', 'Consent is withdrawn through the publisher or the operator.')
    }
    return changeAllowed(principal, true)
  }
}
