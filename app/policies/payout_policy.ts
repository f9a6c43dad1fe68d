import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny, operatorMay } from '#policies/operator_catalogue'

/**
 * Money paid and billed: a publisher reads its own payouts (the service
 * answers 404 for another's), the operator every one and alone runs,
 * pays and fails them; a buyer reads its own statement (404 for another's),
 * the operator any buyer's. A buyer never sees a payout, a publisher never
 * a statement.
 */
export default class PayoutPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.view(principal)
  }

  view(principal: Principal) {
    if (principal.kind !== 'publisher' && !principal.isOperator) {
      return deny('forbidden', 'Payouts are for publishers and the operator.')
    }
    return changeAllowed(principal, false)
  }

  run(principal: Principal) {
    return operatorMay(principal, true)
  }

  markPaid(principal: Principal) {
    return operatorMay(principal, true)
  }

  markFailed(principal: Principal) {
    return operatorMay(principal, true)
  }

  viewStatement(principal: Principal) {
    if (principal.kind !== 'buyer' && !principal.isOperator) {
      return deny('forbidden', 'A statement is for its buyer and the operator.')
    }
    return changeAllowed(principal, false)
  }
}
