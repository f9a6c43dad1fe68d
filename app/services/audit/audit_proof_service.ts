import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import auditConfig from '#config/audit'
import ApiProblem from '#exceptions/api_problem'
import { formatTs } from '#services/audit/audit_chain_service'
import { loadNodes, toCheckpoint } from '#services/audit/audit_sealer_service'
import { CheckpointSigner, type Checkpoint } from '#services/audit/checkpoint_signing'
import { firstRow } from '#services/sql/first_row'
import { transaction } from '#services/sql/transaction'
import {
  consistencyRanges,
  inclusionRanges,
  nodesFor,
  rangeHash,
  type Range,
} from '#services/audit/merkle_tree'

export const PROOF_FORMAT = 'leadgate-audit-proof/v1'

export type ProofEntry = {
  event: string
  ts: string
  actor: string
  lead_seq: number
  status_from: string | null
  status_to: string
  prev_hash: string
  hash: string
  log_index: number
}

export type InclusionProof = {
  log_index: number
  leaf_index: number
  tree_size: number
  hashes: string[]
}

const CHECKPOINT_COLUMNS = 'origin, size, root, key_id, signature, note'

/**
 * Hands out what lets anyone check the log without trusting it: signed
 * checkpoints, a lead's entries with an RFC 9162 inclusion proof each, and
 * consistency proofs between checkpoints. Reads run in one repeatable-read
 * transaction so the checkpoint, the positions and the nodes agree.
 */
export default class AuditProofService {
  constructor(private given: CheckpointSigner | null = null) {}

  /** Resolved on first use, so a missing key fails what needs it, not every audit route. */
  private get signer() {
    return this.given ?? CheckpointSigner.configured()
  }

  /** The public half of the signing key, in the forms a verifier takes. */
  get key() {
    return {
      public_key: this.signer.publicKey.toString('base64'),
      verifier_key: this.signer.verifierKey,
    }
  }

  async latestCheckpoint(client: QueryClientContract = db.connection()) {
    const row = await firstRow(
      client,
      `SELECT ${CHECKPOINT_COLUMNS} FROM audit.checkpoints ORDER BY size DESC LIMIT 1`
    )
    return row ? toCheckpoint(row) : null
  }

  async checkpointAt(size: number, client: QueryClientContract = db.connection()) {
    const row = await firstRow(
      client,
      `SELECT ${CHECKPOINT_COLUMNS} FROM audit.checkpoints WHERE size = ?`,
      [size]
    )
    return row ? toCheckpoint(row) : null
  }

  /**
   * A lead's proof bundle against the latest checkpoint. All or nothing: while
   * any of its entries is newer than the latest checkpoint the answer is 409
   * `not_sealed` (the sealer runs every few seconds), so a bundle always
   * proves the lead's whole trail as it stood when it was made.
   */
  async bundle(leadId: string) {
    return transaction(
      async (trx) => {
        const checkpoint = await this.latestCheckpoint(trx)
        const { rows } = await trx.rawQuery(
          `SELECT e.event, e.ts, e.actor, e.lead_seq, e.status_from, e.status_to, e.prev_hash, e.hash, p.log_index
             FROM audit.entries e LEFT JOIN audit.log_positions p ON p.entry_id = e.id
             WHERE e.lead_id = ? ORDER BY e.lead_seq`,
          [leadId]
        )

        if (rows.length === 0) throw ApiProblem.notFound('lead')
        const size = checkpoint?.size ?? 0
        const waiting = rows.filter(
          (row: any) => row.log_index === null || Number(row.log_index) >= size
        )
        if (!checkpoint || waiting.length > 0) {
          throw notSealed(waiting.length)
        }
        const entries: ProofEntry[] = rows.map((row: any) => ({
          event: row.event,
          ts: formatTs(row.ts),
          actor: row.actor,
          lead_seq: Number(row.lead_seq),
          status_from: row.status_from,
          status_to: row.status_to,
          prev_hash: row.prev_hash,
          hash: row.hash,
          log_index: Number(row.log_index),
        }))
        const paths = entries.map((entry) => inclusionRanges(entry.log_index, size))
        const hashes = await hashRanges(trx, paths)
        const proofs: InclusionProof[] = entries.map((entry, i) => ({
          log_index: entry.log_index,
          leaf_index: entry.log_index,
          tree_size: size,
          hashes: hashes(paths[i]),
        }))
        return {
          format: PROOF_FORMAT,
          lead_id: leadId,
          entries,
          proofs,
          checkpoint,
          ...this.key,
        }
      },
      { isolationLevel: 'repeatable read' }
    )
  }

  /** RFC 9162 consistency proof between two signed sizes; both must be checkpoints. */
  async consistency(from: number, to: number) {
    if (from > to) {
      throw ApiProblem.unprocessable([
        { field: 'from', code: 'after_to', message: 'from must not be larger than to.' },
      ])
    }
    return transaction(
      async (trx) => {
        const [first, second] = await Promise.all([
          this.checkpointAt(from, trx),
          this.checkpointAt(to, trx),
        ])
        if (!first || !second) throw ApiProblem.notFound('checkpoint')
        const ranges = consistencyRanges(from, to)
        const hashes = await hashRanges(trx, [ranges])
        return { from: first, to: second, hashes: hashes(ranges), ...this.key }
      },
      { isolationLevel: 'repeatable read' }
    )
  }
}

/** Loads every node the ranges need in two queries, then hashes each list of ranges. */
async function hashRanges(client: QueryClientContract, lists: Range[][]) {
  const nodes = await loadNodes(client, nodesFor(lists.flat()))
  return (ranges: Range[]) => ranges.map((range) => rangeHash(range, (key) => nodes.get(key)!))
}

function notSealed(waiting: number) {
  const seconds = Math.ceil(auditConfig.seal.intervalMs / 1000)
  return new ApiProblem(
    409,
    'not_sealed',
    'Conflict',
    `${waiting} of this lead's audit entries are not in a signed checkpoint yet; the log is sealed every ${seconds} s, retry then.`,
    { retry_after_seconds: seconds }
  )
}

export type ProofBundle = Awaited<ReturnType<AuditProofService['bundle']>>
export type { Checkpoint }
