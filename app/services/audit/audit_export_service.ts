import { Readable } from 'node:stream'
import type Principal from '#auth/principal'
import { CheckpointSigner } from '#services/audit/checkpoint_signing'
import AuditSnapshot from '#services/audit/snapshot'
import { assertFiltersAllowed } from '#services/leads/lead_service'
import { toCheckpoint } from '#services/audit/audit_sealer_service'
import { complianceConditions } from '#services/access/compliance_scope'

/**
 * A timestamptz as Postgres prints it with TimeZone UTC and DateStyle ISO
 * ("2026-11-22 04:18:55.12+00") in the hashed form "2026-11-22T04:18:55.120Z".
 * Cheaper here than `to_char` in the database, which shares the machine.
 */
function isoFromPg(text: string) {
  if (text.charCodeAt(19) !== 46) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`
  const end = text.indexOf('+', 20)
  const fraction = `${text.slice(20, end < 0 ? text.length : end)}00`.slice(0, 3)
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`
}

export const EXPORT_FORMAT = 'leadgate-audit-export/v1'

export const CSV_COLUMNS = [
  'lead_id',
  'log_index',
  'lead_seq',
  'event',
  'ts',
  'actor',
  'status_from',
  'status_to',
  'prev_hash',
  'hash',
] as const

export type ExportFilters = {
  /** Events at or after (by `ts`). */
  from?: Date
  /** Events before (by `ts`). */
  to?: Date
  publisher?: string
  label?: string
  buyer?: string
  environment?: 'live' | 'sandbox'
}

type Scope = { where: string[]; params: unknown[] }
type Row = Array<string | null>

/** Rows per round trip: a few megabytes in flight, whatever the size of the export. */
const BATCH = 500

/** [id, lead_id, publisher_id, log_index, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash] */
const columns = (logIndex: string) =>
  `e.id, e.lead_id, e.publisher_id, ${logIndex}, e.lead_seq, e.event, e.ts, e.actor, e.status_from, e.status_to, e.prev_hash, e.hash`

/**
 * The audit trail as files for auditors: CSV (one row per event) and nested
 * JSON (one object per lead), read in keyset-paginated batches inside one
 * snapshot and written as they are read, so memory stays flat for any number
 * of events; the next batch is fetched while the current one is written.
 * Who sees what is the lead's visibility: a publisher its own leads (in its
 * key's environment), a buyer the leads delivered to it, the operator and
 * compliance everything.
 */
export default class AuditExportService {
  constructor(private given: CheckpointSigner | null = null) {}

  /** Resolved on first use, so a missing key fails what needs it, not every audit route. */
  private get signer() {
    return this.given ?? CheckpointSigner.configured()
  }

  /**
   * Written by Postgres itself (COPY … CSV): the rows never become
   * JavaScript values, so a million events cost the server next to no CPU
   * and a few socket buffers of memory. RFC 4180 quoting; null is empty.
   */
  csv(principal: Principal, filters: ExportFilters): Readable {
    const { where, params } = this.scope(principal, filters)
    const rows = async function* () {
      const snapshot = await AuditSnapshot.open()
      try {
        const inlined = where.map((sql) =>
          sql.replace(/\$(\d+)/g, (_, n) => snapshot.literal(literalOf(params[Number(n) - 1])))
        )
        const query = `SELECT e.lead_id, p.log_index, e.lead_seq, e.event,
            to_char(e.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts,
            e.actor, e.status_from, e.status_to, e.prev_hash, e.hash
          FROM audit.entries e LEFT JOIN audit.log_positions p ON p.entry_id = e.id
          ${clause(inlined)} ORDER BY e.id`
        yield* snapshot.copyOut(query, 'FORMAT csv, HEADER true')
      } finally {
        await snapshot.close()
      }
    }
    return Readable.from(rows(), { highWaterMark: 1 })
  }

  /**
   * One line per lead between a header line and a footer line: valid JSON,
   * and a verifier can read it lead by lead without holding it all.
   */
  json(principal: Principal, filters: ExportFilters): Readable {
    const { where, params } = this.scope(principal, filters)
    const complete = this.isComplete(principal, filters)
    const key = {
      public_key: this.signer.publicKey.toString('base64'),
      verifier_key: this.signer.verifierKey,
    }
    const next = params.length + 1
    // In lead order each entry's position is one index lookup.
    const sql = (first: boolean) =>
      `SELECT ${columns('(SELECT p.log_index FROM audit.log_positions p WHERE p.entry_id = e.id)')} FROM audit.entries e
       ${clause([...where, ...(first ? [] : [`(e.lead_id, e.lead_seq) > ($${next}::uuid, $${next + 1}::int)`])])}
       ORDER BY e.lead_id, e.lead_seq LIMIT ${BATCH}`
    const lines = async function* () {
      const header: Record<string, unknown> = {
        format: EXPORT_FORMAT,
        generated_at: new Date().toISOString(),
        filters: describe(filters),
        complete,
        checkpoint: null,
        ...key,
      }
      // Which publisher a lead came from is not the buyer's to see.
      const withPublisher = principal.kind !== 'buyer'
      let lead: { lead_id: string; publisher_id?: string; events: object[] } | null = null
      let leads = 0
      let events = 0
      const source = batches(
        sql,
        params,
        (last) => [last[1], last[4]],
        async (snapshot) => {
          const [checkpoint] = await snapshot.query(
            'SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints ORDER BY size DESC LIMIT 1'
          )
          header.checkpoint = checkpoint ? toCheckpoint(checkpoint) : null
        }
      )
      let started = false
      for await (const rows of source) {
        let text = started ? '' : `${JSON.stringify(header).slice(0, -1)},"leads":[\n`
        started = true
        for (const row of rows) {
          if (lead && lead.lead_id !== row[1]) {
            text += `${leads++ > 0 ? ',\n' : ''}${JSON.stringify(lead)}`
            lead = null
          }
          lead ??= withPublisher
            ? { lead_id: row[1]!, publisher_id: row[2]!, events: [] }
            : { lead_id: row[1]!, events: [] }
          lead.events.push({
            log_index: row[3] === null ? null : Number(row[3]),
            lead_seq: Number(row[4]),
            event: row[5],
            ts: isoFromPg(row[6]!),
            actor: row[7],
            status_from: row[8],
            status_to: row[9],
            prev_hash: row[10],
            hash: row[11],
          })
          events++
        }
        yield text
      }
      let tail = started ? '' : `${JSON.stringify(header).slice(0, -1)},"leads":[\n`
      if (lead) tail += `${leads++ > 0 ? ',\n' : ''}${JSON.stringify(lead)}`
      yield `${tail}\n],"lead_count":${leads},"event_count":${events}}\n`
    }
    return Readable.from(lines(), { highWaterMark: 1 })
  }

  /** The whole log, unfiltered: a verifier can then rebuild the signed root from it. */
  isComplete(principal: Principal, filters: ExportFilters) {
    const everything =
      principal.isOperator || (principal.kind === 'compliance' && principal.scope === null)
    return everything && Object.values(filters).every((value) => value === undefined)
  }

  private scope(principal: Principal, filters: ExportFilters): Scope {
    const where: string[] = []
    const params: unknown[] = []
    const add = (sql: string, ...values: unknown[]) => {
      let next = 0
      where.push(
        sql.replace(/\?/g, () => {
          params.push(values[next++])
          return `$${params.length}`
        })
      )
    }
    assertFiltersAllowed(principal, filters)
    if (principal.kind === 'publisher') {
      add('e.publisher_id = ?', principal.publisherId)
      add('e.environment = ?', principal.environment)
    } else if (principal.kind === 'buyer') {
      add('e.lead_id IN (SELECT lead_id FROM sales WHERE buyer_id = ?)', principal.buyerId)
      add('e.environment = ?', principal.environment)
    } else if (principal.environment === 'sandbox') {
      add('e.environment = ?', 'sandbox')
    } else if (filters.environment) {
      add('e.environment = ?', filters.environment)
    }
    // A scoped auditor: its publishers' and labels' entries, within its period.
    for (const { sql, values } of complianceConditions(principal.scope, {
      publisherId: 'e.publisher_id',
      at: 'e.ts',
    })) {
      add(sql, ...values)
    }
    if (filters.from) add('e.ts >= ?', filters.from)
    if (filters.to) add('e.ts < ?', filters.to)
    if (filters.publisher)
      add('e.publisher_id IN (SELECT id FROM publishers WHERE slug = ?)', filters.publisher)
    if (filters.label) {
      add(
        'e.lead_id IN (SELECT f.lead_id FROM lead_facts f JOIN labels l ON l.id = f.label_id WHERE l.slug = ?)',
        filters.label
      )
    }
    if (filters.buyer)
      add('e.lead_id IN (SELECT lead_id FROM sales WHERE buyer_id = ?)', filters.buyer)
    return { where, params }
  }
}

/**
 * Keyset pagination inside one snapshot: each batch starts after the last
 * row of the one before (`after` names its key), and is asked for before
 * the current batch is handed on, so the database works while it is written.
 */
async function* batches(
  sql: (first: boolean) => string,
  params: unknown[],
  after: (last: Row) => unknown[],
  before?: (snapshot: AuditSnapshot) => Promise<void>
): AsyncGenerator<Row[]> {
  const snapshot = await AuditSnapshot.open()
  let pending: Promise<Row[]> | null = null
  try {
    await before?.(snapshot)
    pending = snapshot.raw(sql(true), params)
    while (pending) {
      const rows: Row[] = await pending
      pending =
        rows.length === BATCH
          ? snapshot.raw(sql(false), [...params, ...after(rows[rows.length - 1])])
          : null
      // A consumer that stops early closes the connection under the query in flight.
      pending?.catch(() => {})
      if (rows.length > 0) yield rows
    }
  } finally {
    await snapshot.close()
  }
}

function clause(where: string[]) {
  return where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
}

function literalOf(value: unknown) {
  return value instanceof Date ? value.toISOString() : String(value)
}

function describe(filters: ExportFilters) {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value])
  )
}
