import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Integration plugins are the operator's to enable per label (a publisher or
 * buyer never sees another party's CRM settings). Reading takes `read`;
 * enabling, changing, removing and testing take `submit`. A sandbox key
 * manages the sandbox installations, whose settings are apart from live.
 */
export default class PluginPolicy extends BasePolicy {
  viewList(principal: Principal) {
    return this.operatorWith(principal, 'read')
  }

  view(principal: Principal) {
    return this.operatorWith(principal, 'read')
  }

  create(principal: Principal) {
    return this.operatorWith(principal, 'submit')
  }

  update(principal: Principal) {
    return this.operatorWith(principal, 'submit')
  }

  delete(principal: Principal) {
    return this.operatorWith(principal, 'submit')
  }

  /** Test connection reaches the remote system with the stored secrets: a change-level action. */
  test(principal: Principal) {
    return this.operatorWith(principal, 'submit')
  }

  private operatorWith(principal: Principal, permission: Permission) {
    return (
      this.onlyFor(
        principal,
        ['operator'],
        'operator_only',
        'Only the operator manages plugins.'
      ) ?? this.permitted(principal, permission)
    )
  }
}
