import type Principal from '#auth/principal'
import type Publisher from '#models/publisher'
import BasePolicy from '#policies/base_policy'

export default class QualityRulesPolicy extends BasePolicy {
  /** A publisher may read the rules its leads are held to; only the operator sets them. */
  view(principal: Principal, publisher: Publisher) {
    return principal.ownsPublisher(publisher.id) && this.changeAllowed(principal, false)
  }

  update(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  /**
   * Trying a sample lead is a submission that stores nothing: it takes the
   * `submit` permission, and a sandbox credential may (it changes no
   * configuration). A publisher tries the rules it is held to; other rules
   * are the operator's to try, as they are the operator's to set.
   */
  preview(principal: Principal, publisher: Publisher, proposed: boolean) {
    if (proposed && !principal.isOperator) {
      return this.deny(
        'operator_only',
        'Only the operator tries rules other than the current ones.'
      )
    }
    if (!principal.can('submit')) {
      return this.deny(
        'permission_missing',
        'Trying a sample lead takes the "submit" permission, as submitting one does.'
      )
    }
    return principal.ownsPublisher(publisher.id)
  }
}
