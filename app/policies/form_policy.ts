import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Hosted forms: a publisher manages its own (the service answers 404 for
 * others'), the operator any publisher's. Buyers and compliance officers
 * have none. A form is live configuration: sandbox credentials only read.
 */
export default class FormPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.may(principal, false)
  }

  view(principal: Principal) {
    return this.may(principal, false)
  }

  create(principal: Principal) {
    return this.may(principal, true)
  }

  update(principal: Principal) {
    return this.may(principal, true)
  }

  private may(principal: Principal, change: boolean) {
    return (
      this.onlyFor(
        principal,
        ['publisher', 'operator'],
        'publisher_only',
        'Forms belong to publishers and the operator.'
      ) ?? this.changeAllowed(principal, change)
    )
  }
}
