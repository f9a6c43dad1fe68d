import type Principal from '#auth/principal'
import type Publisher from '#models/publisher'
import BasePolicy from '#policies/base_policy'

/** What a publisher may change about itself: its onboarding choice of delivery methods. */
const SELF_SERVICE_FIELDS = ['delivery_methods']

export default class PublisherPolicy extends BasePolicy {
  /** A publisher lists only itself; the service scopes the query. */
  viewList(principal: Principal) {
    return principal.isOperator || principal.kind === 'publisher'
      ? this.changeAllowed(principal, false)
      : this.operatorMay(principal, false)
  }

  /**
   * The portal home (its onboarding and today's figures): every one of the
   * publisher's own people, delivering or reporting, since delivering needs
   * the rules as much as reporting does.
   */
  viewHome(principal: Principal, publisher: Publisher) {
    return (
      principal.ownsPublisher(publisher.id) ||
      this.deny('operator_only', "Only the publisher's own people see its home.")
    )
  }

  view(principal: Principal, publisher: Publisher) {
    return principal.ownsPublisher(publisher.id) && this.changeAllowed(principal, false)
  }

  create(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  /** A fresh invitation link for a publisher that has not accepted yet. */
  resendInvitation(principal: Principal) {
    return this.operatorMay(principal, true)
  }

  /**
   * The operator changes anything; a publisher chooses its own delivery
   * methods (the onboarding step after the invitation) and nothing else.
   */
  update(principal: Principal, publisher: Publisher, fields: string[]) {
    if (principal.isOperator) return this.changeAllowed(principal, true)
    if (
      !principal.ownsPublisher(publisher.id) ||
      fields.some((field) => !SELF_SERVICE_FIELDS.includes(field))
    ) {
      return this.deny('operator_only', "Only the operator changes a publisher's name and status.")
    }
    return this.changeAllowed(principal, true)
  }

  /**
   * The publisher's own onboarding steps (confirming its rules, asking to go
   * live); the operator may take them on its behalf.
   */
  confirmRules(principal: Principal, publisher: Publisher) {
    return this.onboard(principal, publisher)
  }

  requestGoLive(principal: Principal, publisher: Publisher) {
    return this.onboard(principal, publisher)
  }

  private onboard(principal: Principal, publisher: Publisher) {
    if (!principal.ownsPublisher(publisher.id)) {
      return this.deny(
        'operator_only',
        'Only the publisher itself or the operator takes this step.'
      )
    }
    return this.changeAllowed(principal, true)
  }
}
