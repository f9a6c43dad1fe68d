import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import type Publisher from '#models/publisher'
import { changeAllowed, operatorMay } from '#policies/operator_catalogue'

export default class QualityRulesPolicy extends BasePolicy {
  /** A publisher may read the rules its leads are held to; only the operator sets them. */
  view(principal: Principal, publisher: Publisher) {
    return principal.ownsPublisher(publisher.id) && changeAllowed(principal, false)
  }

  update(principal: Principal) {
    return operatorMay(principal, true)
  }
}
