import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Disputes: the buyer opens and withdraws its own, the publisher answers those about its leads,
 * the operator decides; all three read what concerns them (the service answers 404 for another
 * owner's dispute). A step takes `submit`. The sandbox behaves like live: a sandbox credential
 * takes the steps on sandbox disputes, and never reaches a live one (the service keeps each
 * credential to its environment's leads and disputes, docs/money.md "Sandbox").
 */
export default class DisputePolicy extends BasePolicy {
  view(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'publisher', 'buyer'],
        'forbidden',
        'Disputes are for their buyer, their publisher and the operator.'
      ) ?? this.changeAllowed(principal, false)
    )
  }

  open(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['buyer'],
        'buyer_only',
        'Only the buyer a lead was sold to returns it.'
      ) ?? this.permitted(principal, 'submit')
    )
  }

  respond(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['publisher'],
        'publisher_only',
        "Only the lead's publisher answers a dispute."
      ) ?? this.permitted(principal, 'submit')
    )
  }

  decide(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['operator'],
        'operator_only',
        'Only the operator decides a dispute the rules did not.'
      ) ?? this.permitted(principal, 'submit')
    )
  }

  withdraw(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['buyer'],
        'buyer_only',
        'Only the buyer that opened a dispute withdraws it.'
      ) ?? this.permitted(principal, 'submit')
    )
  }
}
