import { BaseTransformer } from '@adonisjs/core/transformers'
import type { Verification } from '#services/audit/audit_chain_service'

/** A lead's trail, recomputed (GET /v1/audit-logs/verify): whether every link holds, or where it breaks. */
export default class VerificationTransformer extends BaseTransformer<Verification> {
  toObject() {
    const verification = this.resource
    return {
      lead_id: verification.lead_id,
      valid: verification.valid,
      entries: verification.entries,
      broken_at: verification.broken_at,
    }
  }
}
