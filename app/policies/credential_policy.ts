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
