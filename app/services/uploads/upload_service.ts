import { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { stringify } from 'csv-stringify'
import { uuidv7 } from 'uuidv7'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import uploadsConfig from '#config/uploads'
import TenancyService from '#services/platform/tenancy_service'
import IntakeService from '#services/intake/intake_service'
import { assertDeliveryMethod } from '#services/intake/delivery_methods'
import { transaction } from '#services/sql/transaction'
import { paginate, type PageRequest } from '#services/sql/cursor_pagination'
import { UploadReader } from '#services/uploads/upload_reader'
import { mappingErrors, planColumns } from '#services/uploads/upload_columns'
import { type RawRow, type RowReason, cellsOf } from '#services/uploads/upload_row_input'
import { enqueueUploadJob } from '#services/uploads/upload_queue'
import type { RowOutcome, UploadRow } from '#services/uploads/upload_types'

/** An upload as its owner sees it: the row, its publisher, and how its columns map. */
export type UploadView = UploadRow & {
  publisher: string
  plan: ReturnType<typeof planColumns>
  /** Rows still to become leads while accepting (valid rows, and flagged ones if chosen). */
  to_accept: number
}

/** What the caller sent beside the file, read once the body has been received. */
export type UploadFields = { publisher?: string; mapping?: Record<string, string | null> }
/** Hands the file to the service as it streams in (the controller's multipart handler calls it). */
export type FileSink = (file: {
  stream: AsyncIterable<Buffer>
  filename: string | null
}) => Promise<void>
/** Receives the request body, calling the sink for the file; answers the other fields. */
export type UploadBody = (sink: FileSink) => Promise<UploadFields>

export type RowFilters = PageRequest & { outcome?: RowOutcome }

/**
 * Uploads (CSV and JSON Lines): receiving a file into the publisher's
 * schema while it streams in, showing where it stands, its rows and its
 * report, and asking for its acceptance. Validation and acceptance run in
 * the worker (`upload_validation.ts`, `upload_acceptance.ts`).
 */
@inject()
export default class UploadService {
  constructor(
    protected tenancy: TenancyService,
    protected intake: IntakeService
  ) {}

  /**
   * Reads the body and stores the upload and its raw rows, all in one
   * transaction: a file refused for any reason (too large, too many rows,
   * unreadable, a mapping that does not fit, a publisher that may not
   * upload) leaves nothing behind. A publisher's own credential names the
   * schema before the body: the rows go straight to its `upload_rows`,
   * under an upload row completed once the file is read. The operator names
   * the publisher in a field that may follow the file: its rows go to a
   * temporary table first and move to the publisher's schema at the end.
   */
  async receive(principal: Principal, body: UploadBody): Promise<UploadView> {
    // A publisher's own key is known before the body: refuse a disabled delivery method at once.
    const own = principal.kind === 'publisher' ? await this.ownPublisher(principal) : null
    if (own) assertDeliveryMethod(own, 'upload')

    const upload = await transaction(async (trx) => {
      const id = uuidv7()
      if (own) {
        await this.tenancy.enter(trx, own)
        await this.startUpload(trx, principal, own, id)
      } else {
        await trx.rawQuery(
          'CREATE TEMPORARY TABLE incoming_upload_rows (row_number int, raw jsonb) ON COMMIT DROP'
        )
      }
      let reader: UploadReader | null = null
      const fields = await body(async ({ stream, filename }) => {
        if (reader) {
          throw ApiProblem.unprocessable([
            { field: 'file', code: 'one_file', message: 'Send one file per upload.' },
          ])
        }
        reader = new UploadReader(stream, filename)
        await this.writeRows(trx, reader, own ? id : null)
      })
      if (!reader) {
        throw ApiProblem.unprocessable([
          {
            field: 'file',
            code: 'required',
            message: 'Send the CSV or JSON Lines file as the multipart field "file".',
          },
        ])
      }
      const publisher = await this.publisherOf(principal, own, fields.publisher)
      return this.store(trx, principal, publisher, reader, fields.mapping, { id, started: !!own })
    })
    await enqueueUploadJob('validate', upload.id, upload.publisher_id)
    return upload
  }

  /**
   * The rows as they are read, `receiveBatch` at a time, each batch one
   * INSERT with the rows as one JSON parameter (a list of rows): no
   * per-row bindings for the driver to rewrite, one parse in Postgres.
   * One batch is written while the next is read. With an upload id the
   * rows go to the publisher's `upload_rows` (the schema is entered),
   * without to the temporary table.
   */
  private async writeRows(
    trx: TransactionClientContract,
    reader: UploadReader,
    uploadId: string | null
  ) {
    const insert = uploadId
      ? `INSERT INTO upload_rows (upload_id, row_number, raw)
         SELECT ?::uuid, ?::int + r.position, r.raw
         FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS r(raw, position)`
      : `INSERT INTO incoming_upload_rows (row_number, raw)
         SELECT ?::int + r.position, r.raw
         FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS r(raw, position)`
    let batch: RawRow[] = []
    let written = 0
    let writing: Promise<unknown> = Promise.resolve()
    const flush = async () => {
      await writing
      if (batch.length === 0) return
      const rows = JSON.stringify(batch)
      // A real promise: a knex query runs again each time it is awaited.
      writing = Promise.resolve(
        trx.rawQuery(insert, uploadId ? [uploadId, written, rows] : [written, rows])
      )
      written += batch.length
      batch = []
    }
    try {
      for await (const raw of reader.rows()) {
        batch.push(raw)
        if (batch.length >= uploadsConfig.receiveBatch) await flush()
      }
      await flush()
    } finally {
      // Never left running: a refusal rolls the transaction back once the last write has answered.
      await writing.catch(() => {})
    }
    await writing
  }

  /** The upload's row, before its file is read (see `store`). */
  private async startUpload(
    trx: TransactionClientContract,
    principal: Principal,
    publisher: Publisher,
    id: string
  ) {
    const now = new Date()
    await trx.rawQuery(
      `INSERT INTO uploads (id, publisher_id, environment, status, format, encoding, bytes, columns,
         created_by, row_count, created_at, updated_at)
       VALUES (?, ?, ?, 'validating', 'csv', 'utf-8', 0, '[]'::jsonb, ?, 0, ?, ?)`,
      [id, publisher.id, principal.environment, principal.actor, now, now]
    )
  }

  private async ownPublisher(principal: Principal) {
    const publisher = await Publisher.query()
      .where('id', principal.publisherId ?? '')
      .preload('label')
      .first()
    if (!publisher) throw ApiProblem.forbidden('publisher_only', 'This key has no publisher.')
    return publisher
  }

  /** The publisher the upload is for: the key's own; the operator names one (`publisher`). */
  private async publisherOf(principal: Principal, own: Publisher | null, slug?: string) {
    if (!own && !slug) {
      throw ApiProblem.unprocessable([
        {
          field: 'publisher',
          code: 'required',
          message: 'Name the publisher (its slug) the upload is for in the field "publisher".',
        },
      ])
    }
    const publisher = await this.intake.publisherFor(principal, slug ?? own!.slug)
    assertDeliveryMethod(publisher, 'upload')
    return publisher
  }

  /**
   * The upload as read: its row completed (or written, for rows waiting in
   * the temporary table, which then move to the publisher's schema).
   */
  private async store(
    trx: TransactionClientContract,
    principal: Principal,
    publisher: Publisher,
    reader: UploadReader,
    mapping: Record<string, string | null> | undefined,
    upload: { id: string; started: boolean }
  ) {
    const errors = mapping ? mappingErrors(reader.columns, mapping) : []
    if (errors.length > 0)
      throw ApiProblem.unprocessable(errors, 'The mapping does not fit the file.')
    const { id } = upload
    const now = new Date()
    const read = [
      reader.format,
      reader.filename?.slice(0, 255) ?? null,
      reader.encoding,
      reader.delimiter,
      reader.bytes,
      JSON.stringify(reader.columns),
      mapping ? JSON.stringify(mapping) : null,
      reader.rowCount,
    ]
    if (upload.started) {
      await trx.rawQuery(
        `UPDATE uploads SET format = ?, filename = ?, encoding = ?, delimiter = ?, bytes = ?,
           columns = ?::jsonb, requested_mapping = ?::jsonb, row_count = ?, updated_at = ?
         WHERE id = ?`,
        [...read, now, id] as any[]
      )
    } else {
      await this.tenancy.enter(trx, publisher)
      await trx.rawQuery(
        `INSERT INTO uploads (format, filename, encoding, delimiter, bytes, columns,
           requested_mapping, row_count, id, publisher_id, environment, status, created_by,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, 'validating', ?, ?, ?)`,
        [...read, id, publisher.id, principal.environment, principal.actor, now, now] as any[]
      )
      await trx.rawQuery(
        'INSERT INTO upload_rows (upload_id, row_number, raw) SELECT ?, row_number, raw FROM incoming_upload_rows',
        [id]
      )
    }
    const [row] = (await trx.from('uploads').where('id', id)) as UploadRow[]
    return this.view(row, publisher)
  }

  /**
   * One upload, as its owner sees it; another owner's, or one of the other
   * environment, is 404. Two round trips, no transaction: what a progress
   * bar polling it costs.
   */
  async find(principal: Principal, id: string): Promise<UploadView> {
    const { publisher, upload } = await this.locate(principal, id)
    return this.view(upload, publisher)
  }

  /**
   * Where an upload lives and the upload itself: a publisher's own schema,
   * or for the operator whichever publisher's schema holds the id (one
   * statement over them all, schema-qualified, so no transaction is needed).
   */
  private async locate(principal: Principal, id: string) {
    const candidates =
      principal.kind === 'publisher'
        ? await Publisher.query().where('id', principal.publisherId ?? '')
        : principal.isOperator
          ? await Publisher.query()
          : []
    const found = candidates.length
      ? await db.rawQuery(
          candidates
            .map(
              (candidate) =>
                `SELECT * FROM "${candidate.schemaName}".uploads WHERE id = ? AND environment = ?`
            )
            .join(' UNION ALL '),
          candidates.flatMap(() => [id, principal.environment])
        )
      : { rows: [] }
    const upload = found.rows[0] as UploadRow | undefined
    const publisher = candidates.find((candidate) => candidate.id === upload?.publisher_id)
    if (!upload || !publisher) throw ApiProblem.notFound('upload')
    return { publisher, upload }
  }

  view(row: UploadRow, publisher: Pick<Publisher, 'slug'>): UploadView {
    const plan = planColumns(row.columns, row.requested_mapping ?? {})
    const toAccept =
      row.status === 'accepting' || row.status === 'accepted'
        ? row.accepted_rows + (row.include_flagged ? row.flagged_rows : 0)
        : 0
    return { ...row, publisher: publisher.slug, plan, to_accept: toAccept }
  }

  /** A page of the upload's rows in file order, optionally of one outcome. */
  async rows(principal: Principal, id: string, filters: RowFilters) {
    const { publisher } = await this.locate(principal, id)
    return this.tenancy.run(publisher, async (trx) => {
      const query = trx
        .from('upload_rows')
        .select('row_number as id', 'outcome', 'reasons', 'lead_id', 'lead_status')
        .where('upload_id', id)
      if (filters.outcome) query.where('outcome', filters.outcome)
      return paginate(
        query as any,
        { ...filters, order: 'asc' },
        'row_number',
        'bigint'
      ) as Promise<{
        data: {
          id: number
          outcome: RowOutcome | null
          reasons: RowReason[] | null
          lead_id: string | null
          lead_status: string | null
        }[]
        nextCursor: string | null
      }>
    })
  }

  /**
   * The report as CSV, streamed page by page: per row its number, outcome,
   * reasons and lead, then the cells of the file as read. A cell a
   * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first)
   * is written with a leading `'`, so the report can be opened safely.
   */
  async report(principal: Principal, id: string, outcome?: RowOutcome): Promise<Readable> {
    const { publisher } = await this.locate(principal, id)
    const columns = await this.tenancy.run(publisher, async (trx) => {
      const [found] = await trx.from('uploads').where('id', id).select('columns')
      return found.columns as string[]
    })
    const tenancy = this.tenancy
    const pageSize = 2000
    async function* records() {
      yield ['row', 'outcome', 'reasons', 'lead_id', 'lead_status', ...columns]
      let after = 0
      for (;;) {
        const page = (await tenancy.run(publisher, (trx) => {
          const query = trx
            .from('upload_rows')
            .select('row_number', 'outcome', 'reasons', 'lead_id', 'lead_status', 'raw')
            .where('upload_id', id)
            .where('row_number', '>', after)
            .orderBy('row_number')
            .limit(pageSize)
          if (outcome) query.where('outcome', outcome)
          return query
        })) as {
          row_number: number
          outcome: string | null
          reasons: RowReason[] | null
          lead_id: string | null
          lead_status: string | null
          raw: RawRow
        }[]
        for (const row of page) {
          yield [
            row.row_number,
            row.outcome ?? 'pending',
            (row.reasons ?? [])
              .map((reason) => `${reason.code}${reason.field ? ` (${reason.field})` : ''}`)
              .join('; '),
            row.lead_id ?? '',
            row.lead_status ?? '',
            ...(typeof row.raw === 'string'
              ? [row.raw]
              : cellsOf(row.raw, columns).map((cell) => cell ?? '')),
          ]
        }
        if (page.length < pageSize) return
        after = page[page.length - 1].row_number
      }
    }
    return Readable.from(records()).pipe(stringify({ escape_formulas: true }))
  }

  /**
   * Asks for the valid rows (and the flagged ones with `includeFlagged`) to
   * become leads; the worker does it. Asking again is harmless: rows that
   * are leads already are skipped.
   */
  async accept(principal: Principal, id: string, includeFlagged: boolean) {
    const { publisher } = await this.locate(principal, id)
    const row = await this.tenancy.run(publisher, async (trx) => {
      const [current] = (await trx.from('uploads').where('id', id).forUpdate()) as UploadRow[]
      if (current.status === 'validating') {
        throw ApiProblem.conflict(
          'upload_not_validated',
          'The upload is still being validated: accept it once its status is "validated" (GET /v1/uploads/{id}).'
        )
      }
      const [updated] = (await trx
        .from('uploads')
        .where('id', id)
        .update({
          status: 'accepting',
          include_flagged: includeFlagged || current.include_flagged,
          accepted_by: principal.actor,
          accept_requested_at: new Date(),
          accepted_at: null,
          updated_at: new Date(),
        })
        .returning('*')) as UploadRow[]
      return updated
    })
    await enqueueUploadJob('accept', id, publisher.id)
    return this.view(row, publisher)
  }
}
