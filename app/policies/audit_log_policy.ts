import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * The audit trail: whoever may read leads reads the trails, proofs and
 * exports of the leads visible to them (the services scope which). The
 * whole-log verification walks every publisher's entries: the operator's
 * and an unscoped compliance officer's.
 */
export default class AuditLogPolicy extends BasePolicy {
  view(principal: Principal) {
    // A label manager reads its label's reports and leads, not the evidence tier.
    if (principal.kind === 'label_manager') {
      return this.deny('forbidden', 'Label managers read reports and leads only.')
    }
    return this.permitted(principal, 'read')
  }

  export(principal: Principal) {
    return this.view(principal)
  }

  /** The operator, and a compliance officer whom the operator did not narrow to some leads. */
  verifyLog(principal: Principal) {
    const auditsAll = principal.kind === 'compliance' && principal.scope === null
    if (!principal.isOperator && !auditsAll) {
      return this.deny(
        'operator_only',
        'Only the operator and an unscoped compliance officer verify the whole log; pass lead_id to verify one lead.'
      )
    }
    return this.view(principal)
  }
}
