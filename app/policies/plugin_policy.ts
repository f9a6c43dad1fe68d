import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { operatorMay } from '#policies/operator_catalogue'

/**
 * Integration plugins are the operator's to enable per label (a publisher or
 * buyer never sees another party's CRM settings). Reading takes `read`;
 * enabling, changing, resending and testing take `submit`.
 */
export default class PluginPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return operatorMay(principal, false)
  }

  view(principal: Principal) {
    return operatorMay(principal, false)
  }

  create(principal: Principal) {
    return operatorMay(principal, true)
  }

  update(principal: Principal) {
    return operatorMay(principal, true)
  }

  delete(principal: Principal) {
    return operatorMay(principal, true)
  }

  resend(principal: Principal) {
    return operatorMay(principal, true)
  }

  /** Test connection reaches the remote system with the stored secrets: a change-level action. */
  test(principal: Principal) {
    return operatorMay(principal, true)
  }
}
