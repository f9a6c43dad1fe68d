import type { UploadView } from '#services/uploads/upload_service'
import type { RowReason } from '#services/uploads/upload_row_input'

const iso = (moment: Date | null) => (moment ? new Date(moment).toISOString() : null)

/** How far the current step is: validation over every row, acceptance over the rows it turns into leads. */
function progressOf(upload: UploadView) {
  const accepting = upload.status === 'accepting' || upload.status === 'accepted'
  const done = accepting ? upload.leads_created : upload.validated_rows
  const total = accepting ? Math.max(upload.to_accept, upload.leads_created) : upload.row_count
  const finished = upload.status === 'validated' || upload.status === 'accepted'
  return {
    step: accepting ? 'accept' : 'validate',
    done,
    total,
    percent: finished || total === 0 ? 100 : Math.floor((done / total) * 100),
  }
}

export function uploadToJson(upload: UploadView) {
  return {
    id: upload.id,
    publisher: upload.publisher,
    environment: upload.environment,
    status: upload.status,
    format: upload.format,
    filename: upload.filename,
    encoding: upload.encoding,
    delimiter: upload.delimiter,
    bytes: Number(upload.bytes),
    rows: upload.row_count,
    counts: {
      accepted: upload.accepted_rows,
      flagged: upload.flagged_rows,
      rejected: upload.rejected_rows,
    },
    progress: progressOf(upload),
    include_flagged: upload.include_flagged,
    leads_created: upload.leads_created,
    columns: upload.columns,
    mapping: upload.plan.mapping,
    unmapped_columns: upload.plan.unmapped,
    requested_mapping: upload.requested_mapping,
    created_at: iso(upload.created_at),
    validated_at: iso(upload.validated_at),
    accepted_at: iso(upload.accepted_at),
  }
}

export function uploadRowToJson(row: {
  id: number
  outcome: string | null
  reasons: RowReason[] | null
  lead_id: string | null
  lead_status: string | null
}) {
  return {
    row: row.id,
    outcome: row.outcome ?? 'pending',
    reasons: row.reasons ?? [],
    lead_id: row.lead_id,
    lead_status: row.lead_status,
  }
}
