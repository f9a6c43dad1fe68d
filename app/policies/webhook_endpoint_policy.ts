import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { deny } from '#policies/operator_catalogue'

/**
 * Webhook endpoints, their deliveries and replays: the operator, publishers
 * and buyers manage their own (the service scopes which, and answers 404 for
 * others'); compliance officers none. Reading takes `read`, anything that
 * changes or sends takes `submit`. Sandbox credentials manage sandbox
 * endpoints, which only ever receive sandbox events.
 */
export default class WebhookEndpointPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return may(principal, 'read')
  }

  view(principal: Principal) {
    return may(principal, 'read')
  }

  create(principal: Principal) {
    return may(principal, 'submit')
  }

  update(principal: Principal) {
    return may(principal, 'submit')
  }

  delete(principal: Principal) {
    return may(principal, 'submit')
  }

  /** Retry, recover, replay: anything that sends again. */
  resend(principal: Principal) {
    return may(principal, 'submit')
  }
}

function may(principal: Principal, permission: 'read' | 'submit') {
  if (principal.kind === 'compliance' || principal.kind === 'label_manager') {
    return deny('forbidden', 'Compliance credentials and label managers do not manage webhooks.')
  }
  return (
    principal.can(permission) ||
    deny('permission_missing', `This credential lacks the "${permission}" permission.`)
  )
}
