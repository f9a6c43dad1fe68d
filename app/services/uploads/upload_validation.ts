import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import uploadsConfig from '#config/uploads'
import TenancyService from '#services/platform/tenancy_service'
import { evaluateLead, publisherContext } from '#services/quality/evaluate_lead'
import { normaliseLead } from '#services/quality/normalise'
import type { Normalised } from '#services/quality/types'
import { planColumns } from '#services/uploads/upload_columns'
import {
  type RawRow,
  type RowReason,
  leadInputOf,
  momentsAsDates,
} from '#services/uploads/upload_row_input'
import type { UploadRow } from '#services/uploads/upload_types'

const DAY_MS = 86_400_000

type KeyColumn = 'email_key' | 'phone_key'

/** Keys the duplicate rule compares, as the screen of the whole file remembers them. */
function fileKeys(keys: string[]) {
  return (normalised: Pick<Normalised, 'email' | 'phone'>) =>
    keys
      .map((key): [KeyColumn, string | null] =>
        key === 'contact.phone' ? ['phone_key', normalised.phone] : ['email_key', normalised.email]
      )
      .filter((pair): pair is [KeyColumn, string] => pair[1] !== null)
}

type Outcome = {
  row_number: number
  outcome: 'accepted' | 'flagged' | 'rejected'
  reasons: RowReason[]
  email_key: string | null
  phone_key: string | null
}

/**
 * Validation of an upload (the worker's `validate` job): every row through
 * the publisher's quality rules, as intake would judge it, without writing
 * a lead. Rows go in batches of `validateBatch`; for each, one read of the
 * raw rows, one read-only duplicate look-up against the stored leads, the
 * rules in one synchronous loop, and one statement that writes every
 * outcome and the upload's counts, so the report grows while it runs.
 *
 * Validation writes no lead, so it takes none of intake's duplicate locks:
 * a snapshot of the stored leads is enough for a verdict that acceptance
 * (which screens again, under the locks) only previews. A copy later in the
 * file is a duplicate of the first, across batches: the rows remember their
 * duplicate keys, so a validation that was interrupted resumes with the
 * same memory. While one batch is judged and written, the next one's rows
 * and look-up are already on their way (a read, on another connection).
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
    /** The duplicate keys (`column:value`) of the file's rows so far that were not rejected. */
    const inFile = new Set<string>()
    // Rows judged before an interruption count as earlier rows of the file.
    await this.tenancy.run(publisher, async (trx) => {
      const earlier = await trx
        .from('upload_rows')
        .select('email_key', 'phone_key')
        .where('upload_id', uploadId)
        .whereIn('outcome', ['accepted', 'flagged'])
      for (const row of earlier) {
        for (const [column, value] of keysOf({ email: row.email_key, phone: row.phone_key })) {
          inFile.add(`${column}:${value}`)
        }
      }
    })

    const windowDays = rules.duplicates?.window_days ?? 0
    const asDates = momentsAsDates(rules)
    /** The next batch's rows in file order, read with their duplicate look-up. */
    const read = (after: number) =>
      this.tenancy.run(publisher, async (trx) => {
        const rows = (await trx
          .from('upload_rows')
          .select('row_number', 'raw')
          .where('upload_id', uploadId)
          .where('row_number', '>', after)
          .whereNull('outcome')
          .orderBy('row_number')
          .limit(uploadsConfig.validateBatch)) as { row_number: number; raw: RawRow }[]
        const judged = rows.map((row) => {
          const { input, problems } = leadInputOf(row.raw, upload.columns, plan, publisher.slug, {
            momentsAsDates: asDates,
          })
          const normalised = normaliseLead(input, publisher.country)
          return { row, input, problems, normalised, keys: keysOf(normalised) }
        })
        const now = new Date()
        const stored = await storedKeys(
          trx,
          publisher.schemaName,
          judged.flatMap((item) => item.keys),
          upload.environment,
          new Date(now.getTime() - windowDays * DAY_MS)
        )
        return { judged, stored, now }
      })

    let validated = 0
    let next = read(0)
    for (;;) {
      const { judged, stored, now } = await next
      if (judged.length === 0) {
        await this.tenancy.run(publisher, (trx) =>
          trx
            .from('uploads')
            .where('id', uploadId)
            .where('status', 'validating')
            .update({ status: 'validated', validated_at: new Date(), updated_at: new Date() })
        )
        break
      }
      next = read(judged[judged.length - 1].row.row_number)
      // Caught here and rethrown below: an error of the read ahead must not go unhandled meanwhile.
      next.catch(() => {})

      const context = publisherContext(publisher, rules, now)
      const outcomes: Outcome[] = []
      for (const { row, input, problems, normalised, keys } of judged) {
        const named = keys.map(([column, value]) => `${column}:${value}`)
        const duplicate = named.some((key) => stored.has(key) || inFile.has(key))
        const evaluation = evaluateLead(input, { ...context, duplicate, normalised })
        const outcome = problems.length > 0 ? 'rejected' : evaluation.outcome
        if (outcome !== 'rejected') for (const key of named) inFile.add(key)
        outcomes.push({
          row_number: row.row_number,
          outcome,
          reasons: problems.length > 0 ? [...problems, ...evaluation.reasons] : evaluation.reasons,
          email_key: normalised.email?.slice(0, 254) ?? null,
          phone_key: normalised.phone,
        })
      }
      const written = await this.tenancy.run(publisher, (trx) =>
        this.record(trx, uploadId, outcomes)
      )
      // Another run judged these rows meanwhile (a job handed on while this one still ran): it goes on.
      if (written !== outcomes.length) break
      validated += written
    }
    await next.catch(() => null)
    return { validated }
  }

  /**
   * The batch's outcomes and the upload's counts, in one statement. The
   * rows come as one JSON parameter, and the update is bounded to the
   * batch's range of row numbers, so it probes the primary key whatever the
   * planner believes about the table (it may not have seen it analysed).
   * Only rows still without an outcome are written; answers how many were.
   */
  private async record(trx: TransactionClientContract, uploadId: string, outcomes: Outcome[]) {
    const result = await trx.rawQuery(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb)
           AS v(row_number int, outcome text, reasons jsonb, email_key text, phone_key text)
       ), written AS (
         UPDATE upload_rows u SET outcome = v.outcome, reasons = v.reasons,
           email_key = v.email_key, phone_key = v.phone_key
         FROM v
         WHERE u.upload_id = ? AND u.row_number BETWEEN ? AND ? AND u.row_number = v.row_number
           AND u.outcome IS NULL
         RETURNING v.outcome
       ), counts AS (
         SELECT count(*)::int AS validated,
           count(*) FILTER (WHERE outcome = 'accepted')::int AS accepted,
           count(*) FILTER (WHERE outcome = 'flagged')::int AS flagged,
           count(*) FILTER (WHERE outcome = 'rejected')::int AS rejected
         FROM written
       )
       UPDATE uploads SET validated_rows = validated_rows + c.validated,
         accepted_rows = accepted_rows + c.accepted, flagged_rows = flagged_rows + c.flagged,
         rejected_rows = rejected_rows + c.rejected, updated_at = now()
       FROM counts c WHERE id = ?
       RETURNING c.validated`,
      [
        JSON.stringify(outcomes),
        uploadId,
        outcomes[0].row_number,
        outcomes[outcomes.length - 1].row_number,
        uploadId,
      ]
    )
    return (result.rows[0]?.validated ?? 0) as number
  }
}

/**
 * Which of these keys a stored lead (same environment, not rejected, inside
 * the window) already holds, as `column:value`: intake's look-up
 * (`intake_enter_and_screen`, one index probe per key) without its locks.
 */
async function storedKeys(
  trx: TransactionClientContract,
  schemaName: string,
  keys: [KeyColumn, string][],
  environment: string,
  since: Date
) {
  if (keys.length === 0) return new Set<string>()
  const valuesOf = (column: KeyColumn) => [
    ...new Set(keys.filter(([name]) => name === column).map(([, value]) => value)),
  ]
  const found = await trx.rawQuery(
    'SELECT key FROM intake_enter_and_screen(?, ?::text[], ?::text[], ?::text[], ?, ?) AS key',
    [schemaName, [], valuesOf('email_key'), valuesOf('phone_key'), environment, since]
  )
  return new Set<string>(found.rows.map((row: { key: string }) => row.key))
}
