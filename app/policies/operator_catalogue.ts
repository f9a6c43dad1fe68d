import { AuthorizationResponse, BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'

/**
 * A denial carries its problem code as the translation identifier; the
 * exception handler turns it into the `code` of the 403.
 */
export function deny(code: string, message: string) {
  return AuthorizationResponse.deny(message, 403).t(code)
}

/**
 * Reading takes the `read` permission, changing takes `submit`, and sandbox
 * credentials never change live configuration.
 */
export function changeAllowed(principal: Principal, change: boolean) {
  if (change && principal.environment === 'sandbox') {
    return deny('environment_not_allowed', 'Sandbox credentials cannot change live configuration.')
  }
  if (!principal.can(change ? 'submit' : 'read')) {
    return deny(
      'permission_missing',
      `This credential lacks the "${change ? 'submit' : 'read'}" permission.`
    )
  }
  return true
}

/** The catalogue (labels, buyers, routing rules) belongs to the operator alone. */
export function operatorMay(principal: Principal, change: boolean) {
  if (!principal.isOperator) {
    return deny('operator_only', 'Only the operator manages the catalogue.')
  }
  return changeAllowed(principal, change)
}

export abstract class OperatorCataloguePolicy extends BasePolicy {
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
}
