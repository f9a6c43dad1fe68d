import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import Principal from '#auth/principal'
import uploadsConfig from '#config/uploads'
import TenancyService from '#services/platform/tenancy_service'
import IntakeService, { type Answer } from '#services/intake/intake_service'
import { rowsOf } from '#services/sql/insert_together'
import { planColumns } from '#services/uploads/upload_columns'
import { type RawRow, leadInputOf } from '#services/uploads/upload_row_input'
import type { UploadRow } from '#services/uploads/upload_types'

const LEAD_COLUMNS = [
  ['row_number', 'int'],
  ['lead_id', 'uuid'],
  ['lead_status', 'text'],
] as const

/** A batch's rows were taken by another run meanwhile: this batch is rolled back and read again. */
class RowsTaken extends Error {}

/**
 * Acceptance of an upload (the worker's `accept` job): its valid rows (and
 * flagged ones, if asked) become leads through the one intake pipeline, in
 * batches of `acceptBatch`, each one intake group commit (`recordBatch`):
 * channel `upload`, consent method `upload`, the acceptor as the actor of
 * each audit trail, the upload's environment. Each row's `lead_id` is
 * written in the transaction that writes its lead, so a run killed halfway
 * resumes at the first row without a lead, and accepting again finds
 * nothing left to do.
 */
@inject()
export default class UploadAcceptance {
  constructor(
    protected tenancy: TenancyService,
    protected intake: IntakeService
  ) {}

  async run(publisherId: string, uploadId: string) {
    const publisher = await Publisher.query().where('id', publisherId).preload('label').first()
    if (!publisher) return { created: 0 }
    let after = 0
    let created = 0
    for (;;) {
      const batch = await this.nextBatch(publisher, uploadId, after)
      if (batch === null) break
      const { upload, rows } = batch
      const plan = planColumns(upload.columns, upload.requested_mapping ?? {})
      const principal = new Principal(
        'publisher',
        new Set(['submit']),
        upload.environment,
        upload.accepted_by ?? upload.created_by,
        publisher.id
      )
      const inputs = rows.map(
        (row) => leadInputOf(row.raw, upload.columns, plan, publisher.slug).input
      )
      try {
        await this.intake.recordBatch(
          principal,
          publisher,
          inputs,
          { channel: 'upload', consentMethod: 'upload' },
          (trx, answers) => this.markRows(trx, uploadId, rows, answers)
        )
        created += rows.length
      } catch (error) {
        // Another run made these leads first: read the rows again, now marked.
        if (!(error instanceof RowsTaken)) throw error
        continue
      }
      after = rows[rows.length - 1].row_number
    }
    return { created }
  }

  /**
   * The next rows to become leads, or null once there are none: then the
   * upload is accepted, decided under the upload's row lock, so an accept
   * asked for meanwhile (with flagged rows now, say) is never missed.
   */
  private async nextBatch(publisher: Publisher, uploadId: string, after: number) {
    return this.tenancy.run(publisher, async (trx) => {
      const [upload] = (await trx.from('uploads').where('id', uploadId).forUpdate()) as UploadRow[]
      if (!upload || upload.status !== 'accepting') return null
      const pending = (from: number) =>
        trx
          .from('upload_rows')
          .select('row_number', 'raw')
          .where('upload_id', uploadId)
          .where('row_number', '>', from)
          .whereNull('lead_id')
          .whereIn('outcome', upload.include_flagged ? ['accepted', 'flagged'] : ['accepted'])
          .orderBy('row_number')
          .limit(uploadsConfig.acceptBatch) as Promise<{ row_number: number; raw: RawRow }[]>
      let rows = await pending(after)
      // Flagged rows asked for while this run went on lie before `after`.
      if (rows.length === 0 && after > 0) rows = await pending(0)
      if (rows.length > 0) return { upload, rows }
      await trx
        .from('uploads')
        .where('id', uploadId)
        .update({ status: 'accepted', accepted_at: new Date(), updated_at: new Date() })
      return null
    })
  }

  /**
   * Inside the batch's intake transaction: each row gets its lead. Rows
   * already holding one (a second run got there first) make the whole
   * batch roll back, leads included.
   */
  private async markRows(
    trx: TransactionClientContract,
    uploadId: string,
    rows: { row_number: number }[],
    answers: Answer[]
  ) {
    const values = rowsOf(
      LEAD_COLUMNS,
      rows.map((row, index) => ({
        row_number: row.row_number,
        lead_id: answers[index].body.id,
        lead_status: answers[index].body.status,
      }))
    )
    const marked = await trx.rawQuery(
      `UPDATE upload_rows u SET lead_id = v.lead_id, lead_status = v.lead_status
       FROM ${values.from}
       WHERE u.upload_id = ? AND u.row_number = v.row_number AND u.lead_id IS NULL`,
      [...values.bindings, uploadId]
    )
    if (marked.rowCount !== rows.length) throw new RowsTaken()
    await trx.rawQuery(
      'UPDATE uploads SET leads_created = leads_created + ?, updated_at = now() WHERE id = ?',
      [rows.length, uploadId]
    )
  }
}
