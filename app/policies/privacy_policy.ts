import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { operatorMay } from '#policies/operator_catalogue'

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
}
