import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * A buyer's destinations: the operator manages any buyer's, a buyer its own (the service
 * answers 404 for another's). Publishers never see how a buyer takes its leads.
 */
export default class DestinationPolicy extends BasePolicy {
  view(principal: Principal) {
    return this.mayManage(principal, false)
  }

  change(principal: Principal) {
    return this.mayManage(principal, true)
  }

  private mayManage(principal: Principal, change: boolean) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'buyer'],
        'forbidden',
        'Destinations are a buyer’s and the operator’s.'
      ) ?? this.changeAllowed(principal, change)
    )
  }
}
