import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { deny } from '#policies/operator_catalogue'

/**
 * Publishers and the operator deliver leads; everyone with `read` reads the
 * leads visible to them (the service scopes which: own, delivered, or all).
 */
export default class LeadPolicy extends BasePolicy {
  create(principal: Principal) {
    if (principal.kind !== 'publisher' && !principal.isOperator) {
      return deny('publisher_only', 'Only publisher and operator credentials deliver leads.')
    }
    return (
      principal.can('submit') ||
      deny('permission_missing', 'This credential lacks the "submit" permission.')
    )
  }

  view(principal: Principal) {
    return (
      principal.can('read') ||
      deny('permission_missing', 'This credential lacks the "read" permission.')
    )
  }

  /** Deciding a flagged lead is the operator's: publishers and buyers read the outcome. */
  review(principal: Principal) {
    if (!principal.isOperator) {
      return deny('operator_only', 'Only the operator reviews flagged leads.')
    }
    return (
      principal.can('submit') ||
      deny('permission_missing', 'This credential lacks the "submit" permission.')
    )
  }
}
