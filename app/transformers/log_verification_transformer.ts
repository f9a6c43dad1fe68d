import { BaseTransformer } from '@adonisjs/core/transformers'
import type { LogVerification } from '#services/audit/audit_verifier_service'

/** The whole audit log, verified (GET /v1/audit-logs/verify without `lead_id`). */
export default class LogVerificationTransformer extends BaseTransformer<LogVerification> {
  /** `failuresShown`: how many failures to list (the compliance page shows the first few). */
  constructor(
    verification: LogVerification,
    protected failuresShown?: number
  ) {
    super(verification)
  }

  toObject() {
    const verification = this.resource
    return {
      ...verification,
      failures: verification.failures.slice(0, this.failuresShown),
    }
  }
}
