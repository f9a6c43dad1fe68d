import { BaseTransformer } from '@adonisjs/core/transformers'
import type { RowReason } from '#services/uploads/upload_row_input'
import type { RowOutcome } from '#services/uploads/upload_types'

type UploadRowResult = {
  id: number
  outcome: RowOutcome | null
  reasons: RowReason[] | null
  lead_id: string | null
  lead_status: string | null
}

/** One row of an upload's report: its outcome, and why (the quality rules' reasons, or the file's). */
export default class UploadRowTransformer extends BaseTransformer<UploadRowResult> {
  toObject() {
    const row = this.resource
    return {
      row: row.id,
      outcome: row.outcome ?? ('pending' as const),
      reasons: row.reasons ?? [],
      lead_id: row.lead_id,
      lead_status: row.lead_status,
    }
  }
}
