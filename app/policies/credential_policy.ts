import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * API keys and OAuth clients: the operator manages every one, a publisher its
 * own (the service scopes the query), buyers none.
 */
export default class CredentialPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.managesCredentials(principal) ?? this.changeAllowed(principal, false)
  }

  /**
   * The portal's list of keys issued to the caller: a buyer's users see the
   * keys the operator gave their buyer, though a buyer manages none; a
   * publisher user who may create keys (submit) sees them to revoke them.
   */
  viewIssued(principal: Principal) {
    if (principal.kind === 'buyer') return this.changeAllowed(principal, false)
    if (principal.kind === 'publisher' && principal.can('submit')) return true
    return this.viewList(principal)
  }

  create(principal: Principal) {
    return this.managesCredentials(principal) ?? this.changeAllowed(principal, true)
  }

  delete(principal: Principal, credential: { publisherId: string | null }) {
    return principal.ownsPublisher(credential.publisherId) && this.changeAllowed(principal, true)
  }

  private managesCredentials(principal: Principal) {
    return this.onlyFor(
      principal,
      ['operator', 'publisher'],
      'forbidden',
      'Only the operator and publishers manage credentials.'
    )
  }
}
