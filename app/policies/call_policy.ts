import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Calls are reported by the operator or by a publisher (for its own leads),
 * with `submit`, in either environment (a sandbox call finds sandbox leads);
 * whoever sees a lead reads its calls with `read`.
 */
export default class CallPolicy extends BasePolicy {
  create(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'publisher'],
        'not_allowed',
        'Only the operator or a publisher reports calls.'
      ) ?? this.permitted(principal, 'submit')
    )
  }

  viewList(principal: Principal) {
    return this.permitted(principal, 'read')
  }
}
