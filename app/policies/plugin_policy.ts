import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { deny } from '#policies/operator_catalogue'

/**
 * Integration plugins are the operator's to enable per label (a publisher or
 * buyer never sees another party's CRM settings). Reading takes `read`;
 * enabling, changing, removing and testing take `submit`. A sandbox key
 * manages the sandbox installations, whose settings are apart from live.
 */
export default class PluginPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return operatorWith(principal, 'read')
  }

  view(principal: Principal) {
    return operatorWith(principal, 'read')
  }

  create(principal: Principal) {
    return operatorWith(principal, 'submit')
  }

  update(principal: Principal) {
    return operatorWith(principal, 'submit')
  }

  delete(principal: Principal) {
    return operatorWith(principal, 'submit')
  }

  /** Test connection reaches the remote system with the stored secrets: a change-level action. */
  test(principal: Principal) {
    return operatorWith(principal, 'submit')
  }
}

function operatorWith(principal: Principal, permission: 'read' | 'submit') {
  if (!principal.isOperator) return deny('operator_only', 'Only the operator manages plugins.')
  if (!principal.can(permission))
    return deny('permission_missing', `This credential lacks the "${permission}" permission.`)
  return true
}
