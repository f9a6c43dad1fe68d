import { BaseTransformer } from '@adonisjs/core/transformers'
import type { LeadAudience } from '#services/leads/lead_presenter'
import type { DisputeDetail } from '#services/money/dispute_reader'
import { isoTime } from '#services/sql/timestamps'
import ConsentEvidenceTransformer from '#transformers/consent_evidence_transformer'
import DisputeTransformer from '#transformers/dispute_transformer'
import VerificationTransformer from '#transformers/verification_transformer'

/** GET /v1/disputes/{id}: the summary with the lead's consent evidence, its trail's check and the thread. */
export default class DisputeDetailTransformer extends BaseTransformer<DisputeDetail> {
  constructor(
    detail: DisputeDetail,
    protected audience: LeadAudience
  ) {
    super(detail)
  }

  toObject() {
    const detail = this.resource
    return {
      ...new DisputeTransformer(detail.dispute, this.audience).toObject(),
      consent_evidence:
        detail.evidence && new ConsentEvidenceTransformer(detail.evidence).toObject(),
      verification: new VerificationTransformer(detail.verification).toObject(),
      thread: detail.thread.map((message) => ({
        author: message.author,
        text: message.text,
        files: message.files,
        created_at: isoTime(message.created_at),
      })),
    }
  }
}
