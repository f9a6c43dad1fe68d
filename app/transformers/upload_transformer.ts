import { BaseTransformer } from '@adonisjs/core/transformers'
import type { UploadView } from '#services/uploads/upload_service'
import { isoTime } from '#services/sql/timestamps'

/** Who each upload is by, for a portal page: its publisher's and its uploader's names. */
export type UploadNames = {
  /** The operator's view; a publisher reads no publisher column (an empty map). */
  publishers: ReadonlyMap<string, string | null>
  /** UploadListing.uploaderNames: in words the reader may see. */
  uploaders: Record<string, string>
}

export default class UploadTransformer extends BaseTransformer<UploadView> {
  constructor(
    upload: UploadView,
    protected names?: UploadNames
  ) {
    super(upload)
  }

  toObject() {
    const upload = this.resource
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
      progress: this.progress(),
      include_flagged: upload.include_flagged,
      leads_created: upload.leads_created,
      columns: upload.columns,
      mapping: upload.plan.mapping,
      unmapped_columns: upload.plan.unmapped,
      requested_mapping: upload.requested_mapping,
      created_at: isoTime(upload.created_at),
      validated_at: isoTime(upload.validated_at),
      accepted_at: isoTime(upload.accepted_at),
    }
  }

  /** An upload in the portal: whose it is and who uploaded it, by name. */
  withNames() {
    const upload = this.resource
    return {
      ...this.toObject(),
      publisher_name: this.names?.publishers.get(upload.publisher_id) ?? null,
      uploaded_by: this.names?.uploaders[upload.created_by] ?? null,
    }
  }

  /** How far the current step is: validation over every row, acceptance over the rows it turns into leads. */
  protected progress() {
    const upload = this.resource
    const accepting = upload.status === 'accepting' || upload.status === 'accepted'
    const done = accepting ? upload.leads_created : upload.validated_rows
    const total = accepting ? Math.max(upload.to_accept, upload.leads_created) : upload.row_count
    const finished = upload.status === 'validated' || upload.status === 'accepted'
    return {
      step: accepting ? ('accept' as const) : ('validate' as const),
      done,
      total,
      percent: finished || total === 0 ? 100 : Math.floor((done / total) * 100),
    }
  }
}
