import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { stringify } from 'csv-stringify'
import logger from '@adonisjs/core/services/logger'
import type Principal from '#auth/principal'
import { CheckpointSigner } from '#services/audit_signing'
import AuditSnapshot, { TS_SQL } from '#services/audit_snapshot'
import { toCheckpoint } from '#services/audit_sealer_service'

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

const EVENT_COLUMNS = `p.log_index, e.lead_seq, e.event, ${TS_SQL('e.ts')}, e.actor, e.status_from, e.status_to, e.prev_hash, e.hash`

/**
 * The audit trail as files for auditors: CSV (one row per event) and nested
 * JSON (one object per lead), read through a cursor inside one snapshot and
 * written as they are read, so memory stays flat for any number of events.
 * Who sees what is the lead's visibility: a publisher its own leads (in its
 * key's environment), a buyer the leads delivered to it, the operator and
 * compliance everything.
 */
export default class AuditExportService {
  constructor(private signer: CheckpointSigner = CheckpointSigner.configured()) {}

  csv(principal: Principal, filters: ExportFilters): Readable {
    const { where, params } = this.scope(principal, filters)
    const sql = `SELECT e.lead_id, ${EVENT_COLUMNS}
      FROM audit.entries e LEFT JOIN audit.log_positions p ON p.entry_id = e.id
      ${clause(where)} ORDER BY e.id`
    const rows = async function* () {
      const snapshot = await AuditSnapshot.open()
      try {
        yield* snapshot.streamRaw(sql, params)
      } finally {
        await snapshot.close()
      }
    }
    const out = stringify({ header: true, columns: [...CSV_COLUMNS] })
    pipeline(Readable.from(rows()), out).catch((error) => {
      if (error?.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err: error }, 'audit CSV export failed')
    })
    return out
  }

  /**
   * One line per lead between a header line and a footer line: valid JSON,
   * and a verifier can read it lead by lead without holding it all.
   */
  json(principal: Principal, filters: ExportFilters): Readable {
    const { where, params } = this.scope(principal, filters)
    const complete = this.isComplete(principal, filters)
    const key = { public_key: this.signer.publicKey.toString('base64'), verifier_key: this.signer.verifierKey }
    const sql = `SELECT e.lead_id, e.publisher_id, ${EVENT_COLUMNS}
      FROM audit.entries e LEFT JOIN audit.log_positions p ON p.entry_id = e.id
      ${clause(where)} ORDER BY e.lead_id, e.lead_seq`
    const lines = async function* () {
      const snapshot = await AuditSnapshot.open()
      try {
        const [checkpoint] = await snapshot.query(
          'SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints ORDER BY size DESC LIMIT 1'
        )
        const header = {
          format: EXPORT_FORMAT,
          generated_at: new Date().toISOString(),
          filters: describe(filters),
          complete,
          checkpoint: checkpoint ? toCheckpoint(checkpoint) : null,
          ...key,
        }
        yield `${JSON.stringify(header).slice(0, -1)},"leads":[\n`
        let lead: { lead_id: string; publisher_id: string; events: object[] } | null = null
        let leads = 0
        let events = 0
        for await (const row of snapshot.streamRaw(sql, params)) {
          if (lead && lead.lead_id !== row[0]) {
            yield `${leads++ > 0 ? ',\n' : ''}${JSON.stringify(lead)}`
            lead = null
          }
          lead ??= { lead_id: row[0]!, publisher_id: row[1]!, events: [] }
          lead.events.push({
            log_index: row[2] === null ? null : Number(row[2]),
            lead_seq: Number(row[3]),
            event: row[4],
            ts: row[5],
            actor: row[6],
            status_from: row[7],
            status_to: row[8],
            prev_hash: row[9],
            hash: row[10],
          })
          events++
        }
        if (lead) yield `${leads++ > 0 ? ',\n' : ''}${JSON.stringify(lead)}`
        yield `\n],"lead_count":${leads},"event_count":${events}}\n`
      } finally {
        await snapshot.close()
      }
    }
    return Readable.from(lines())
  }

  /** The whole log, unfiltered: a verifier can then rebuild the signed root from it. */
  isComplete(principal: Principal, filters: ExportFilters) {
    const everything = principal.isOperator || principal.kind === 'compliance'
    return everything && Object.values(filters).every((value) => value === undefined)
  }

  private scope(principal: Principal, filters: ExportFilters): Scope {
    const where: string[] = []
    const params: unknown[] = []
    const add = (sql: string, value: unknown) => {
      params.push(value)
      where.push(sql.replace('?', `$${params.length}`))
    }
    if (principal.kind === 'publisher') {
      add('e.publisher_id = ?', principal.publisherId)
      add('e.environment = ?', principal.environment)
    } else if (principal.kind === 'buyer') {
      add("e.lead_id IN (SELECT lead_id FROM lead_facts WHERE buyer_id = ? AND environment = 'live')", principal.buyerId)
    } else if (filters.environment) {
      add('e.environment = ?', filters.environment)
    }
    if (filters.from) add('e.ts >= ?', filters.from)
    if (filters.to) add('e.ts < ?', filters.to)
    if (filters.publisher) add('e.publisher_id IN (SELECT id FROM publishers WHERE slug = ?)', filters.publisher)
    if (filters.label) {
      add('e.lead_id IN (SELECT f.lead_id FROM lead_facts f JOIN labels l ON l.id = f.label_id WHERE l.slug = ?)', filters.label)
    }
    if (filters.buyer) add('e.lead_id IN (SELECT lead_id FROM lead_facts WHERE buyer_id = ?)', filters.buyer)
    return { where, params }
  }
}

function clause(where: string[]) {
  return where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
}

function describe(filters: ExportFilters) {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value])
  )
}
