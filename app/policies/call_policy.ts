import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { deny } from '#policies/operator_catalogue'

/**
 * Calls are reported by the operator or by a publisher (for its own leads),
 * with `submit`, in either environment (a sandbox call finds sandbox leads);
 * whoever sees a lead reads its calls with `read`.
 */
export default class CallPolicy extends BasePolicy {
  create(principal: Principal) {
    if (principal.kind !== 'operator' && principal.kind !== 'publisher')
      return deny('not_allowed', 'Only the operator or a publisher reports calls.')
    if (!principal.can('submit'))
      return deny('permission_missing', 'This credential lacks the "submit" permission.')
    return true
  }

  viewList(principal: Principal) {
    if (!principal.can('read'))
      return deny('permission_missing', 'This credential lacks the "read" permission.')
    return true
  }
}
