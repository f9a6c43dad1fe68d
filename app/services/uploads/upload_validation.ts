import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import uploadsConfig from '#config/uploads'
import TenancyService from '#services/platform/tenancy_service'
import { DuplicateScreen, enterAndScreen } from '#services/quality/duplicate_finder'
import { evaluateLead, publisherContext } from '#services/quality/evaluate_lead'
import { normaliseLead } from '#services/quality/normalise'
import type { Normalised } from '#services/quality/types'
import { rowsOf } from '#services/sql/insert_together'
import { planColumns } from '#services/uploads/upload_columns'
import { type RawRow, type RowReason, leadInputOf } from '#services/uploads/upload_row_input'
import type { UploadRow } from '#services/uploads/upload_types'

const OUTCOME_COLUMNS = [
  ['row_number', 'int'],
  ['outcome', 'text'],
  ['reasons', 'jsonb'],
  ['email_key', 'text'],
  ['phone_key', 'text'],
] as const

/** Keys the duplicate rule compares, as the screen of the whole file remembers them. */
function fileKeys(keys: string[]) {
  return (normalised: Pick<Normalised, 'email' | 'phone'>) =>
    keys
      .map((key): ['email_key' | 'phone_key', string | null] =>
        key === 'contact.phone' ? ['phone_key', normalised.phone] : ['email_key', normalised.email]
      )
      .filter((pair): pair is ['email_key' | 'phone_key', string] => pair[1] !== null)
}

/**
 * Validation of an upload (the worker's `validate` job): every row through
 * the publisher's quality rules, as intake would judge it, without writing
 * a lead. Rows go in batches, each in one transaction that screens them
 * against the stored leads (`enterAndScreen`, as intake) and writes their
 * outcomes and the upload's counts, so the report grows while it runs. A
 * copy later in the file is a duplicate of the first, across batches: the
 * rows remember their duplicate keys, so a validation that was interrupted
 * resumes with the same memory.
 */
@inject()
export default class UploadValidation {
  constructor(protected tenancy: TenancyService) {}

  async run(publisherId: string, uploadId: string) {
    const publisher = await Publisher.query().where('id', publisherId).preload('label').first()
    if (!publisher) return { validated: 0 }
    const rules = publisher.qualityRules ?? {}
    const upload = await this.tenancy.run(publisher, async (trx) => {
      const [row] = (await trx.from('uploads').where('id', uploadId)) as UploadRow[]
      return row
    })
    if (!upload || upload.status !== 'validating') return { validated: 0 }

    const plan = planColumns(upload.columns, upload.requested_mapping ?? {})
    const keysOf = fileKeys(rules.duplicates?.keys ?? [])
    const inFile = new DuplicateScreen(keysOf, new Set())
    // Rows judged before an interruption count as earlier rows of the file.
    await this.tenancy.run(publisher, async (trx) => {
      const earlier = await trx
        .from('upload_rows')
        .select('email_key', 'phone_key')
        .where('upload_id', uploadId)
        .whereIn('outcome', ['accepted', 'flagged'])
      for (const row of earlier) {
        inFile.remember({ email: row.email_key, phone: row.phone_key } as Normalised)
      }
    })

    let after = 0
    let validated = 0
    for (;;) {
      const done = await this.tenancy.run(publisher, async (trx) => {
        const rows = (await trx
          .from('upload_rows')
          .select('row_number', 'raw')
          .where('upload_id', uploadId)
          .where('row_number', '>', after)
          .whereNull('outcome')
          .orderBy('row_number')
          .limit(uploadsConfig.validateBatch)) as { row_number: number; raw: RawRow }[]
        if (rows.length === 0) {
          await trx
            .from('uploads')
            .where('id', uploadId)
            .update({ status: 'validated', validated_at: new Date(), updated_at: new Date() })
          return null
        }
        const now = new Date()
        const judged = rows.map((row) => {
          const { input, problems } = leadInputOf(row.raw, upload.columns, plan, publisher.slug)
          return { row, input, problems, normalised: normaliseLead(input, publisher.country) }
        })
        const stored = await enterAndScreen(
          trx,
          publisher.schemaName,
          publisher,
          rules,
          judged.map((item) => item.normalised),
          upload.environment,
          now
        )
        const context = publisherContext(publisher, rules, now)
        const outcomes = judged.map(({ row, input, problems, normalised }) => {
          const duplicate = stored.isDuplicate(normalised) || inFile.isDuplicate(normalised)
          const evaluation = evaluateLead(input, { ...context, duplicate, normalised })
          const reasons: RowReason[] = [...problems, ...evaluation.reasons]
          const outcome = problems.length > 0 ? 'rejected' : evaluation.outcome
          if (outcome !== 'rejected') inFile.remember(normalised)
          return {
            row_number: row.row_number,
            outcome,
            reasons: JSON.stringify(reasons),
            email_key: normalised.email?.slice(0, 254) ?? null,
            phone_key: normalised.phone,
          }
        })
        await this.record(trx, uploadId, outcomes)
        return rows[rows.length - 1].row_number
      })
      if (done === null) break
      after = done
      validated += uploadsConfig.validateBatch
    }
    return { validated }
  }

  /** The batch's outcomes and the upload's counts, in two statements. */
  private async record(
    trx: TransactionClientContract,
    uploadId: string,
    outcomes: Record<string, unknown>[]
  ) {
    const values = rowsOf(OUTCOME_COLUMNS, outcomes)
    await trx.rawQuery(
      `UPDATE upload_rows u SET outcome = v.outcome, reasons = v.reasons, email_key = v.email_key,
         phone_key = v.phone_key
       FROM ${values.from} WHERE u.upload_id = ? AND u.row_number = v.row_number`,
      [...values.bindings, uploadId]
    )
    const count = (outcome: string) => outcomes.filter((row) => row.outcome === outcome).length
    await trx.rawQuery(
      `UPDATE uploads SET validated_rows = validated_rows + ?, accepted_rows = accepted_rows + ?,
         flagged_rows = flagged_rows + ?, rejected_rows = rejected_rows + ?, updated_at = now()
       WHERE id = ?`,
      [outcomes.length, count('accepted'), count('flagged'), count('rejected'), uploadId]
    )
  }
}
