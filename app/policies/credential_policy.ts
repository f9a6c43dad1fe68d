import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny } from '#policies/operator_catalogue'

/**
 * API keys and OAuth clients: the operator manages every one, a publisher its
 * own (the service scopes the query), buyers none.
 */
export default class CredentialPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return managesCredentials(principal) ?? changeAllowed(principal, false)
  }

  /**
   * The portal's list of keys issued to the caller: a buyer's users see the
   * keys the operator gave their buyer, though a buyer manages none; a
   * publisher user who may create keys (submit) sees them to revoke them.
   */
  viewIssued(principal: Principal) {
    if (principal.kind === 'buyer') return changeAllowed(principal, false)
    if (principal.kind === 'publisher' && principal.can('submit')) return true
    return this.viewList(principal)
  }

  create(principal: Principal) {
    return managesCredentials(principal) ?? changeAllowed(principal, true)
  }

  delete(principal: Principal, credential: { publisherId: string | null }) {
    return principal.ownsPublisher(credential.publisherId) && changeAllowed(principal, true)
  }
}

function managesCredentials(principal: Principal) {
  if (principal.isOperator || principal.kind === 'publisher') return undefined
  return deny('forbidden', 'Only the operator and publishers manage credentials.')
}
