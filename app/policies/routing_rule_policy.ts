import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Routing rules are the operator's: it alone creates and deletes them. A buyer reads its own
 * (without payouts) and changes their filters, caps, schedule and status (the service refuses
 * any other field with 403 operator_only, and answers 404 for another buyer's rule); a
 * publisher never sees one.
 */
export default class RoutingRulePolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.ownOrOperator(principal, false)
  }

  view(principal: Principal) {
    return this.ownOrOperator(principal, false)
  }

  create(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  update(principal: Principal) {
    return this.ownOrOperator(principal, true)
  }

  delete(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  private ownOrOperator(principal: Principal, change: boolean) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'buyer'],
        'operator_only',
        'Only the operator manages the catalogue.'
      ) ?? this.changeAllowed(principal, change)
    )
  }
}
