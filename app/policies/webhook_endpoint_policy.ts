import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Webhook endpoints, their deliveries and replays: the operator, publishers
 * and buyers manage their own (the service scopes which, and answers 404 for
 * others'); compliance officers and label managers none. Reading takes
 * `read`, anything that changes or sends takes `submit`. Sandbox credentials
 * manage sandbox endpoints, which only ever receive sandbox events.
 */
export default class WebhookEndpointPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.may(principal, 'read')
  }

  view(principal: Principal) {
    return this.may(principal, 'read')
  }

  create(principal: Principal) {
    return this.may(principal, 'submit')
  }

  update(principal: Principal) {
    return this.may(principal, 'submit')
  }

  delete(principal: Principal) {
    return this.may(principal, 'submit')
  }

  /** Retry, recover, replay: anything that sends again. */
  resend(principal: Principal) {
    return this.may(principal, 'submit')
  }

  private may(principal: Principal, permission: Permission) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'publisher', 'buyer'],
        'forbidden',
        'Compliance credentials and label managers do not manage webhooks.'
      ) ?? this.permitted(principal, permission)
    )
  }
}
