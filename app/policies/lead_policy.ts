import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Publishers and the operator deliver leads; everyone with `read` reads the
 * leads visible to them (the service scopes which: own, delivered, or all).
 */
export default class LeadPolicy extends BasePolicy {
  create(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'publisher_only',
        'Only publisher and operator credentials deliver leads.'
      ) ?? this.permitted(principal, 'submit')
    )
  }

  view(principal: Principal) {
    return this.permitted(principal, 'read')
  }

  /** Deciding a flagged lead is the operator's: publishers and buyers read the outcome. */
  review(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['operator'],
        'operator_only',
        'Only the operator reviews flagged leads.'
      ) ?? this.permitted(principal, 'submit')
    )
  }
}
