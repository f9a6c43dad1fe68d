import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import {
  type Column,
  type Part,
  insertRows,
  insertTogether,
  rawPart,
  rowsOf,
} from '#services/sql/insert_together'

export const GENESIS_HASH = '0'.repeat(64)
const DOMAIN = 'leadgate-audit/v1\n'

/** The fields the hash covers (docs/audit.md, "Formats"); anything added later stays outside it. */
export type HashedEntry = {
  event: string
  ts: string
  actor: string
  lead_id: string
  lead_seq: number
  status_from: string | null
  status_to: string
  prev_hash: string
}

export type AuditEntry = HashedEntry & {
  id: string
  publisher_id: string
  environment: string
  hash: string
}

export type NewEntry = { event: string; actor: string; statusFrom: string | null; statusTo: string }

export type AppendInput = {
  publisherId: string
  leadId: string
  environment: string
  entries: NewEntry[]
}

export type BreakReason = 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap'
export type Verification = {
  lead_id: string
  valid: boolean
  entries: number
  broken_at: null | { lead_seq: number; reason: BreakReason }
}

/** Milliseconds, always: the hash input must be one exact string. */
export function formatTs(ts: Date | string) {
  return new Date(ts).toISOString()
}

export function entryHash(entry: HashedEntry) {
  const body = canonicalize({
    event: entry.event,
    ts: formatTs(entry.ts),
    actor: entry.actor,
    lead_id: entry.lead_id,
    lead_seq: entry.lead_seq,
    status_from: entry.status_from,
    status_to: entry.status_to,
    prev_hash: entry.prev_hash,
  })
  return createHash('sha256')
    .update(DOMAIN + body)
    .digest('hex')
}

/**
 * The first entry that does not follow from the ones before it, or null.
 * `head` is the chain head's record of the last entry: a trail whose tail
 * was cut off ends before it.
 */
export function findBreak(
  entries: Array<HashedEntry & { hash: string }>,
  head?: { last_seq: number; last_hash: string } | null
): Verification['broken_at'] {
  let prevHash = GENESIS_HASH
  for (const [index, entry] of entries.entries()) {
    const expectedSeq = index + 1
    if (entry.lead_seq !== expectedSeq) return { lead_seq: expectedSeq, reason: 'seq_gap' }
    if (entry.prev_hash !== prevHash)
      return { lead_seq: entry.lead_seq, reason: 'prev_hash_mismatch' }
    if (entryHash(entry) !== entry.hash)
      return { lead_seq: entry.lead_seq, reason: 'hash_mismatch' }
    prevHash = entry.hash
  }
  if (head && head.last_seq > entries.length)
    return { lead_seq: entries.length + 1, reason: 'seq_gap' }
  if (head && entries.length > 0 && head.last_hash !== prevHash) {
    return { lead_seq: entries.length, reason: 'hash_mismatch' }
  }
  return null
}

/**
 * Entries carry ids, typed actors and statuses only. The patterns keep free
 * text, and with it personal data, out of a store that is never purged.
 */
const SHAPES = {
  event: /^[a-z_]+(\.[a-z_]+)+$/,
  actor: /^[a-z_]+:[A-Za-z0-9._:-]{1,128}$/,
  status: /^[a-z_]{1,32}$/,
}

function assertShape(entry: NewEntry) {
  const ok =
    SHAPES.event.test(entry.event) &&
    SHAPES.actor.test(entry.actor) &&
    SHAPES.status.test(entry.statusTo) &&
    (entry.statusFrom === null || SHAPES.status.test(entry.statusFrom))
  if (!ok) throw new Error(`Refusing a malformed audit entry: ${JSON.stringify(entry)}`)
}

const ENTRY_COLUMNS: Column[] = [
  ['publisher_id', 'uuid'],
  ['lead_id', 'uuid'],
  ['lead_seq', 'int'],
  ['event', 'text'],
  ['ts', 'timestamptz'],
  ['actor', 'text'],
  ['status_from', 'text'],
  ['status_to', 'text'],
  ['prev_hash', 'char(64)'],
  ['hash', 'char(64)'],
  ['environment', 'text'],
]
const SELECT_COLUMNS = ['id', ...ENTRY_COLUMNS.map(([name]) => name)]
const HEAD_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['last_seq', 'int'],
  ['last_hash', 'char(64)'],
]

function headRows(lasts: Omit<AuditEntry, 'id'>[]) {
  return lasts.map((last) => ({
    lead_id: last.lead_id,
    publisher_id: last.publisher_id,
    last_seq: last.lead_seq,
    last_hash: last.hash,
  }))
}

export type ChainHead = {
  publisher_id: string
  last_seq: number
  last_hash: string
  last_ts: Date | null
}

/**
 * A chain head's columns (table alias `h`), for a caller that locks the
 * heads in the statement that locks the rows they record (`chainHeadOf`
 * reads them back).
 */
export const CHAIN_HEAD_COLUMNS = `h.publisher_id AS head_publisher_id, h.last_seq AS head_last_seq,
  h.last_hash AS head_last_hash,
  (SELECT e.ts FROM audit.entries e WHERE e.lead_id = h.lead_id AND e.lead_seq = h.last_seq) AS head_last_ts`

export function chainHeadOf(row: Record<string, any>): ChainHead {
  return {
    publisher_id: row.head_publisher_id,
    last_seq: row.head_last_seq,
    last_hash: row.head_last_hash,
    last_ts: row.head_last_ts,
  }
}

/**
 * Each lead's trail is a hash chain. Appends to one lead serialise on its
 * chain head row; different leads never wait for each other, and the unique
 * (lead_id, lead_seq) makes a fork impossible even if a caller skipped the lock.
 */
export default class AuditChainService {
  /**
   * Appends in the caller's transaction, so the entries commit or vanish with
   * the change they record. A brand-new trail (its first entry has no
   * `statusFrom`) costs one statement; extending one costs two.
   */
  async append(trx: TransactionClientContract, input: AppendInput): Promise<AuditEntry[]> {
    if (input.entries.length === 0) return []
    input.entries.forEach(assertShape)

    if (input.entries[0].statusFrom === null) {
      const created = await this.startChain(trx, input)
      if (created) return created
    }
    let head = await this.lockHead(trx, input.leadId)
    if (!head) {
      const created = await this.startChain(trx, input)
      if (created) return created
      // Someone else started this trail between our two statements.
      head = await this.lockHead(trx, input.leadId)
    }
    if (!head) throw new Error(`Lead ${input.leadId} has no audit trail to extend`)
    const { parts, entries } = this.extendTrailInserts([{ input, head }])
    return withIds(
      entries,
      (await insertTogether(trx, parts)) as { id: string; lead_seq: number }[]
    )
  }

  /**
   * Locks the lead's chain head for the caller's transaction. A caller that
   * locks the lead rows too takes their heads in that same statement instead
   * (`CHAIN_HEAD_COLUMNS`).
   */
  async lockHead(trx: TransactionClientContract, leadId: string): Promise<ChainHead | undefined> {
    const result = await trx.rawQuery(
      `SELECT ${CHAIN_HEAD_COLUMNS} FROM audit.chain_heads h WHERE h.lead_id = ? FOR UPDATE OF h`,
      [leadId]
    )
    return result.rows[0] && chainHeadOf(result.rows[0])
  }

  /**
   * New entries on trails whose heads the caller holds locked, as
   * the two writes (heads, entries) to send with its other writes
   * (`insertTogether`); the entries' write is last and returns their ids.
   */
  extendTrailInserts(trails: { input: AppendInput; head: ChainHead }[]) {
    const chains = trails
      .filter(({ input }) => input.entries.length > 0)
      .map(({ input, head }) => {
        input.entries.forEach(assertShape)
        if (head.publisher_id !== input.publisherId) {
          throw new Error(`Lead ${input.leadId} has an audit trail under another publisher`)
        }
        // A trail's timestamps never go backwards, whatever the clocks of the hosts appending.
        const now = Math.max(Date.now(), head.last_ts?.getTime() ?? 0)
        return this.chain(input, head.last_seq, head.last_hash, new Date(now))
      })
    const entries = chains.flat()
    const lasts = chains.map((chain) => chain[chain.length - 1])
    const heads = rowsOf(HEAD_COLUMNS, headRows(lasts))
    const parts = [
      rawPart(
        `UPDATE audit.chain_heads h SET last_seq = v.last_seq, last_hash = v.last_hash
         FROM ${heads.from} WHERE h.lead_id = v.lead_id`,
        heads.bindings
      ),
      insertRows('audit.entries', ENTRY_COLUMNS, entries, ' RETURNING id, lead_seq'),
    ]
    return { parts, entries }
  }

  /**
   * The first entries of leads created in the caller's transaction, as two
   * INSERTs (every chain head, every entry) to send with its other writes
   * (`insertTogether`). A new lead id has no trail anyone could race with.
   */
  startTrailsInserts(inputs: AppendInput[]): Part[] {
    const chains = inputs.map((input) => {
      input.entries.forEach(assertShape)
      if (input.entries[0]?.statusFrom !== null) {
        throw new Error('A new trail starts with an entry that has no statusFrom')
      }
      return this.chain(input, 0, GENESIS_HASH, new Date())
    })
    const lasts = chains.map((entries) => entries[entries.length - 1])
    return [
      insertRows('audit.chain_heads', HEAD_COLUMNS, headRows(lasts)),
      insertRows('audit.entries', ENTRY_COLUMNS, chains.flat()),
    ]
  }

  /** A lead's entries in order, limited to one publisher's unless `publisherId` is null (operator). */
  async entriesFor(
    publisherId: string | null,
    leadId: string,
    client: QueryClientContract = db.connection()
  ) {
    const query = client.from('audit.entries').select(SELECT_COLUMNS).where('lead_id', leadId)
    if (publisherId !== null) query.where('publisher_id', publisherId)
    const rows = await query.orderBy('lead_seq')
    return rows.map(toEntry)
  }

  /** Recomputes every hash and link of the lead's trail and names the first broken entry. */
  async verify(leadId: string, publisherId: string | null = null): Promise<Verification> {
    const entries = await this.entriesFor(publisherId, leadId)
    const headQuery = db
      .from('audit.chain_heads')
      .select('last_seq', 'last_hash')
      .where('lead_id', leadId)
    if (publisherId !== null) headQuery.where('publisher_id', publisherId)
    const head = await headQuery.first()
    const brokenAt = findBreak(entries, head)
    return {
      lead_id: leadId,
      valid: brokenAt === null,
      entries: entries.length,
      broken_at: brokenAt,
    }
  }

  /**
   * Inserts the head and the entries in one statement when the lead has no
   * trail yet; returns null (having written nothing) when it has one.
   */
  private async startChain(trx: TransactionClientContract, input: AppendInput) {
    const entries = this.chain(input, 0, GENESIS_HASH, new Date())
    const last = entries[entries.length - 1]
    const rows = rowsOf(ENTRY_COLUMNS, entries)
    const result = await trx.rawQuery(
      `WITH head AS (
         INSERT INTO audit.chain_heads (lead_id, publisher_id, last_seq, last_hash) VALUES (?, ?, ?, ?)
         ON CONFLICT (lead_id) DO NOTHING RETURNING lead_id
       )
       INSERT INTO audit.entries (${ENTRY_COLUMNS.map(([name]) => name).join(', ')})
       SELECT * FROM ${rows.from}
       WHERE EXISTS (SELECT 1 FROM head) RETURNING id, lead_seq`,
      [input.leadId, input.publisherId, last.lead_seq, last.hash, ...rows.bindings]
    )
    return result.rows.length > 0 ? withIds(entries, result.rows) : null
  }

  private chain(input: AppendInput, lastSeq: number, lastHash: string, at: Date) {
    const ts = formatTs(at)
    let prevHash = lastHash
    return input.entries.map((entry, index) => {
      const hashed: HashedEntry = {
        event: entry.event,
        ts,
        actor: entry.actor,
        lead_id: input.leadId,
        lead_seq: lastSeq + index + 1,
        status_from: entry.statusFrom,
        status_to: entry.statusTo,
        prev_hash: prevHash,
      }
      prevHash = entryHash(hashed)
      return {
        ...hashed,
        hash: prevHash,
        publisher_id: input.publisherId,
        environment: input.environment,
      }
    })
  }
}

function withIds(
  entries: Omit<AuditEntry, 'id'>[],
  rows: Array<{ id: string | number; lead_seq: number }>
): AuditEntry[] {
  const ids = new Map(rows.map((row) => [row.lead_seq, String(row.id)]))
  return entries.map((entry) => ({ id: ids.get(entry.lead_seq)!, ...entry }))
}

function toEntry(row: Record<string, any>): AuditEntry {
  return {
    id: String(row.id),
    publisher_id: row.publisher_id,
    environment: row.environment,
    event: row.event,
    ts: formatTs(row.ts),
    actor: row.actor,
    lead_id: row.lead_id,
    lead_seq: row.lead_seq,
    status_from: row.status_from,
    status_to: row.status_to,
    prev_hash: row.prev_hash,
    hash: row.hash,
  }
}
