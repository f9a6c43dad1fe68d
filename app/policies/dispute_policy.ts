import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny } from '#policies/operator_catalogue'

const PARTIES = new Set(['operator', 'publisher', 'buyer'])

/**
 * Disputes: the buyer opens and withdraws its own, the publisher answers those about its leads,
 * the operator decides; all three read what concerns them (the service answers 404 for another
 * owner's dispute). A step takes `submit`. The sandbox behaves like live: a sandbox credential
 * takes the steps on sandbox disputes, and never reaches a live one (the service keeps each
 * credential to its environment's leads and disputes, docs/money.md "Sandbox").
 */
export default class DisputePolicy extends BasePolicy {
  view(principal: Principal) {
    if (!PARTIES.has(principal.kind)) {
      return deny('forbidden', 'Disputes are for their buyer, their publisher and the operator.')
    }
    return changeAllowed(principal, false)
  }

  open(principal: Principal) {
    if (principal.kind !== 'buyer') {
      return deny('buyer_only', 'Only the buyer a lead was sold to returns it.')
    }
    return stepAllowed(principal)
  }

  respond(principal: Principal) {
    if (principal.kind !== 'publisher') {
      return deny('publisher_only', "Only the lead's publisher answers a dispute.")
    }
    return stepAllowed(principal)
  }

  decide(principal: Principal) {
    if (!principal.isOperator) {
      return deny('operator_only', 'Only the operator decides a dispute the rules did not.')
    }
    return stepAllowed(principal)
  }

  withdraw(principal: Principal) {
    if (principal.kind !== 'buyer') {
      return deny('buyer_only', 'Only the buyer that opened a dispute withdraws it.')
    }
    return stepAllowed(principal)
  }
}

/** A step changes a dispute of the credential's own environment: `submit`, live or sandbox. */
function stepAllowed(principal: Principal) {
  if (!principal.can('submit')) {
    return deny('permission_missing', 'This credential lacks the "submit" permission.')
  }
  return true
}
