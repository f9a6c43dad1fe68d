import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

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
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'forbidden',
        'Payouts are for publishers and the operator.'
      ) ?? this.changeAllowed(principal, false)
    )
  }

  run(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  markPaid(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  markFailed(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  viewStatement(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['buyer', 'operator'],
        'forbidden',
        'A statement is for its buyer and the operator.'
      ) ?? this.changeAllowed(principal, false)
    )
  }

  /** A buyer's funds: the buyer reads its own (404 for another's), the operator any. */
  viewFunds(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['buyer', 'operator'],
        'forbidden',
        "A buyer's funds are for the buyer and the operator."
      ) ?? this.changeAllowed(principal, false)
    )
  }

  topUp(principal: Principal) {
    return this.operatorMay(principal, true)
  }
}
