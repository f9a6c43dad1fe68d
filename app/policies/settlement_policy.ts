import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Settlement: a publisher reads its own (the service answers 404 for
 * another's), the operator any publisher's. A label's settlement rules
 * (payout schedule, dispute deadlines) are the operator's.
 */
export default class SettlementPolicy extends BasePolicy {
  view(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'forbidden',
        'Settlement is for publishers and the operator.'
      ) ?? this.changeAllowed(principal, false)
    )
  }

  viewRules(principal: Principal) {
    return this.operatorMay(principal, false)
  }

  changeRules(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  /** A manual ledger adjustment: the operator's, with a note. */
  adjust(principal: Principal) {
    return this.operatorMay(principal, true)
  }
}
