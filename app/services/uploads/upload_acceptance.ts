import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import Principal from '#auth/principal'
import uploadsConfig from '#config/uploads'
import TenancyService from '#services/platform/tenancy_service'
import IntakeService, { type Answer } from '#services/intake/intake_service'
import { enqueueRouting } from '#services/routing/routing_queue'
import { planColumns } from '#services/uploads/upload_columns'
import { type RawRow, leadInputOf, momentsAsDates } from '#services/uploads/upload_row_input'
import type { UploadRow } from '#services/uploads/upload_types'

/** Leads handed to the routing queue per call once the upload is accepted. */
const ROUTING_CHUNK = 500

type PendingRow = { row_number: number; raw: RawRow }

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
 *
 * `acceptConcurrency` batches are in flight at once, each in its own
 * transaction: while Postgres writes one, the worker judges the next (a
 * batch is about as much work for the one as for the other). Two batches
 * never share a row; a key they share is serialised by intake's duplicate
 * locks, as for any two groups of leads.
 *
 * Routing waits until the upload is accepted: the same worker routes, and
 * routing each batch as it commits would take the cores the next batches
 * need. Then this run's accepted live leads are queued in bulk. Were the
 * run to die before that, the routing sweeper finds its leads in Postgres
 * (live, accepted, never routed), as it does for any lead whose job was lost.
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
    const routable: string[] = []
    const inFlight = new Set<Promise<void>>()
    let failure: unknown
    let created = 0
    let after = 0
    for (;;) {
      const batch = failure ? null : await this.nextBatch(publisher, uploadId, after)
      if (batch === null || batch.rows.length === 0) {
        // The last rows' batches commit before the upload is called accepted (or the run fails).
        await Promise.all(inFlight)
        if (failure) throw failure
        if (batch === null) break
        // Rows before `after` may still wait: flagged rows asked for meanwhile, or a batch rolled back.
        if (await this.acceptedOrRestart(publisher, uploadId)) break
        after = 0
        continue
      }
      after = batch.rows[batch.rows.length - 1].row_number
      const work = this.accept(publisher, batch.upload, batch.rows).then(
        (answers) => {
          created += answers.length
          for (const answer of answers) {
            // Sandbox rows too: they meet the sandbox's rules (docs/sandbox.md).
            if (answer.body.status === 'accepted') routable.push(answer.body.id)
          }
        },
        (error) => {
          // Another run made (some of) these leads first: the rows are read again at the end.
          if (!(error instanceof RowsTaken)) failure ??= error
        }
      )
      inFlight.add(work)
      void work.finally(() => inFlight.delete(work))
      if (inFlight.size >= uploadsConfig.acceptConcurrency) await Promise.race(inFlight)
    }
    for (let start = 0; start < routable.length; start += ROUTING_CHUNK) {
      await enqueueRouting(routable.slice(start, start + ROUTING_CHUNK))
    }
    return { created }
  }

  /** One batch of rows as leads, their rows marked, in one intake transaction. */
  private accept(publisher: Publisher, upload: UploadRow, rows: PendingRow[]) {
    const plan = planColumns(upload.columns, upload.requested_mapping ?? {})
    const principal = new Principal(
      'publisher',
      new Set(['submit']),
      upload.environment,
      upload.accepted_by ?? upload.created_by,
      publisher.id
    )
    const options = { momentsAsDates: momentsAsDates(publisher.qualityRules ?? {}) }
    const inputs = rows.map(
      (row) => leadInputOf(row.raw, upload.columns, plan, publisher.slug, options).input
    )
    return this.intake.recordBatch(
      principal,
      publisher,
      inputs,
      { channel: 'upload', consentMethod: 'upload' },
      (trx, answers) => this.markRows(trx, upload.id, rows, answers),
      { route: false }
    )
  }

  /**
   * The next rows after `after` still to become leads (none left: an empty
   * list), or null when the upload is not being accepted. A plain read: the
   * rows of batches in flight lie before `after`.
   */
  private async nextBatch(publisher: Publisher, uploadId: string, after: number) {
    return this.tenancy.run(publisher, async (trx) => {
      const [upload] = (await trx.from('uploads').where('id', uploadId)) as UploadRow[]
      if (!upload || upload.status !== 'accepting') return null
      return { upload, rows: await pending(trx, upload, after) }
    })
  }

  /**
   * With no batch in flight: the upload is accepted if no row waits any
   * more, decided under the upload's row lock, so an accept asked for
   * meanwhile (with flagged rows now, say) is never missed. Answers whether
   * it was; if not, the run starts over from the first row.
   */
  private async acceptedOrRestart(publisher: Publisher, uploadId: string) {
    return this.tenancy.run(publisher, async (trx) => {
      const [upload] = (await trx.from('uploads').where('id', uploadId).forUpdate()) as UploadRow[]
      if (!upload || upload.status !== 'accepting') return true
      const waiting = await pending(trx, upload, 0, 1)
      if (waiting.length > 0) return false
      await trx
        .from('uploads')
        .where('id', uploadId)
        .update({ status: 'accepted', accepted_at: new Date(), updated_at: new Date() })
      return true
    })
  }

  /**
   * Inside the batch's intake transaction, in one statement: each row gets
   * its lead, and the upload its count. The rows come as one JSON
   * parameter and the update is bounded to the batch's range of row
   * numbers (a probe of the primary key, whatever the planner believes).
   * Rows already holding a lead (a second run got there first) make the
   * whole batch roll back, leads included.
   */
  private async markRows(
    trx: TransactionClientContract,
    uploadId: string,
    rows: { row_number: number }[],
    answers: Answer[]
  ) {
    const marks = rows.map((row, index) => ({
      row_number: row.row_number,
      lead_id: answers[index].body.id,
      lead_status: answers[index].body.status,
    }))
    const result = await trx.rawQuery(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb) AS v(row_number int, lead_id uuid, lead_status text)
       ), marked AS (
         UPDATE upload_rows u SET lead_id = v.lead_id, lead_status = v.lead_status
         FROM v
         WHERE u.upload_id = ? AND u.row_number BETWEEN ? AND ? AND u.row_number = v.row_number
           AND u.lead_id IS NULL
         RETURNING 1
       ), counted AS (SELECT count(*)::int AS marked FROM marked)
       UPDATE uploads SET leads_created = leads_created + c.marked, updated_at = now()
       FROM counted c WHERE id = ?
       RETURNING c.marked`,
      [
        JSON.stringify(marks),
        uploadId,
        rows[0].row_number,
        rows[rows.length - 1].row_number,
        uploadId,
      ]
    )
    if (result.rows[0]?.marked !== rows.length) throw new RowsTaken()
  }
}

/** Rows after `after`, in file order, that acceptance still has to turn into leads. */
function pending(
  trx: TransactionClientContract,
  upload: UploadRow,
  after: number,
  limit = uploadsConfig.acceptBatch
) {
  return trx
    .from('upload_rows')
    .select('row_number', 'raw')
    .where('upload_id', upload.id)
    .where('row_number', '>', after)
    .whereNull('lead_id')
    .whereIn('outcome', upload.include_flagged ? ['accepted', 'flagged'] : ['accepted'])
    .orderBy('row_number')
    .limit(limit) as Promise<PendingRow[]>
}
