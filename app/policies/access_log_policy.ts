import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, operatorMay } from '#policies/operator_catalogue'

/**
 * Who changed access and configuration, and when. The operator and
 * compliance read all of it, a publisher what concerns itself (the service
 * scopes which); buyers are refused like every operator-only list.
 */
export default class AccessLogPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return principal.kind === 'publisher' || principal.kind === 'compliance'
      ? changeAllowed(principal, false)
      : operatorMay(principal, false)
  }
}
