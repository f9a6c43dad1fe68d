import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny, operatorMay } from '#policies/operator_catalogue'

/**
 * Settlement: a publisher reads its own (the service answers 404 for
 * another's), the operator any publisher's. A label's settlement rules
 * (payout schedule, dispute deadlines) are the operator's.
 */
export default class SettlementPolicy extends BasePolicy {
  view(principal: Principal) {
    if (principal.kind !== 'publisher' && !principal.isOperator) {
      return deny('forbidden', 'Settlement is for publishers and the operator.')
    }
    return changeAllowed(principal, false)
  }

  viewRules(principal: Principal) {
    return operatorMay(principal, false)
  }

  changeRules(principal: Principal) {
    return operatorMay(principal, true)
  }

  /** A manual ledger adjustment: the operator's, with a note. */
  adjust(principal: Principal) {
    return operatorMay(principal, true)
  }
}
