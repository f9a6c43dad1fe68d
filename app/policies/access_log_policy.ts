import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Who changed access and configuration, and when. The operator and
 * compliance read all of it, a publisher what concerns itself (the service
 * scopes which); buyers are refused like every operator-only list.
 */
export default class AccessLogPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return principal.kind === 'publisher' || principal.kind === 'compliance'
      ? this.changeAllowed(principal, false)
      : this.operatorMay(principal, false)
  }
}
