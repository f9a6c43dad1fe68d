import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import type Publisher from '#models/publisher'
import { changeAllowed, operatorMay } from '#policies/operator_catalogue'

export default class PublisherPolicy extends BasePolicy {
  /** A publisher lists only itself; the service scopes the query. */
  viewList(principal: Principal) {
    return principal.isOperator || principal.kind === 'publisher' ? changeAllowed(principal, false) : operatorMay(principal, false)
  }

  view(principal: Principal, publisher: Publisher) {
    return principal.ownsPublisher(publisher.id) && changeAllowed(principal, false)
  }

  create(principal: Principal) {
    return operatorMay(principal, true)
  }

  update(principal: Principal) {
    return operatorMay(principal, true)
  }
}
