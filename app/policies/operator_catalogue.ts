import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/** The catalogue (labels, buyers, routing rules): the operator's alone, to read and to change. */
export abstract class OperatorCataloguePolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.operatorMay(principal, false)
  }

  view(principal: Principal) {
    return this.operatorMay(principal, false)
  }

  create(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  update(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  delete(principal: Principal) {
    return this.operatorMay(principal, true)
  }
}
