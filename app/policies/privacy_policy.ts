import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/** Data-subject requests and retention periods are the operator's, the controller of the data. */
export default class PrivacyPolicy extends BasePolicy {
  fileRequest(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  viewRequest(principal: Principal) {
    return this.operatorMay(principal, false)
  }

  viewRetention(principal: Principal) {
    return this.operatorMay(principal, false)
  }

  changeRetention(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  /** A lead's publisher records a withdrawal it received; the operator any (the service scopes the lead). */
  withdrawConsent(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'forbidden',
        'Consent is withdrawn through the publisher or the operator.'
      ) ?? this.changeAllowed(principal, true)
    )
  }
}
