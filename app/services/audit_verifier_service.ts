import { hash } from 'node:crypto'
import { GENESIS_HASH } from '#services/audit_chain_service'
import { CheckpointSigner, verifyCheckpoint } from '#services/audit_signing'
import AuditSnapshot, { TS_SQL } from '#services/audit_snapshot'
import { toCheckpoint } from '#services/audit_sealer_service'
import { EMPTY_ROOT, Frontier, leafHash } from '#services/merkle_tree'

export type FailureReason =
  | 'hash_mismatch'
  | 'prev_hash_mismatch'
  | 'seq_gap'
  | 'missing_leaf'
  | 'checkpoint_root_mismatch'
  | 'checkpoint_signature_invalid'
  | 'checkpoint_beyond_log'
  | 'trail_missing'
  | 'chain_head_mismatch'
  | 'chain_head_missing'

export type LogFailure = {
  reason: FailureReason
  detail: string
  log_index?: number | null
  entry_id?: string
  lead_id?: string
  lead_seq?: number
  checkpoint_size?: number
}

export type LogVerification = {
  lead_id: null
  valid: boolean
  /** Entries whose hash and chain link were recomputed. */
  entries: number
  sealed: number
  unsealed: number
  leads: number
  checkpoints: number
  tree_size: number
  root: string
  /** The first failure in log order, or null. */
  broken_at: LogFailure | null
  /** The first 100 failures in log order. */
  failures: LogFailure[]
  failure_counts: Partial<Record<FailureReason, number>>
  duration_ms: number
}

const MAX_LISTED = 100
const DOMAIN = 'leadgate-audit/v1\n'
const q = JSON.stringify

/**
 * The entry hash for the fixed shape of a stored entry. RFC 8785 serialises
 * strings exactly as JSON.stringify does and small integers as their
 * decimal form, so with the keys written in code-unit order this is the
 * canonical JSON `entryHash` gets from `canonicalize`, at a third of the
 * cost; a test holds the two together. Verification of the whole log
 * spends most of its time here.
 */
export function fastEntryHash(
  event: string,
  ts: string,
  actor: string,
  leadId: string,
  leadSeq: number,
  statusFrom: string | null,
  statusTo: string,
  prevHash: string
) {
  return hash(
    'sha256',
    `${DOMAIN}{"actor":${q(actor)},"event":${q(event)},"lead_id":${q(leadId)},"lead_seq":${leadSeq},` +
      `"prev_hash":${q(prevHash)},"status_from":${q(statusFrom)},"status_to":${q(statusTo)},"ts":${q(ts)}}`,
    'hex'
  )
}

type ChainState = { seq: number; hash: string; headSeen: boolean }
type StoredCheckpoint = ReturnType<typeof toCheckpoint>

const ENTRY_COLUMNS = `e.id, e.lead_id, e.lead_seq, e.event, ${TS_SQL('e.ts')}, e.actor, e.status_from, e.status_to, e.prev_hash, e.hash`

/**
 * Recomputes the whole log from its entries, trusting nothing stored but
 * them and the public key: every entry hash, every lead's chain and
 * `lead_seq` run, each chain head, the tree root at every checkpoint and
 * every checkpoint's signature. One pass in log order over one snapshot;
 * memory grows with the number of leads, not entries.
 */
export default class AuditVerifierService {
  constructor(private signer: CheckpointSigner = CheckpointSigner.configured()) {}

  async verifyLog(): Promise<LogVerification> {
    const started = performance.now()
    return AuditSnapshot.run(async (snapshot) => {
      const report = new Report()
      const checkpoints = (
        await snapshot.query('SELECT origin, size, root, key_id, signature, note FROM audit.checkpoints ORDER BY size')
      ).map(toCheckpoint)
      const chains = new Map<string, ChainState>()
      const frontier = new Frontier()
      let next = 0
      const reachCheckpoints = () => {
        while (next < checkpoints.length && checkpoints[next].size <= frontier.size) {
          this.checkCheckpoint(checkpoints[next], frontier, report)
          next++
        }
      }
      reachCheckpoints()

      let sealed = 0
      const sealedRows = snapshot.streamRaw(
        `SELECT p.log_index, ${ENTRY_COLUMNS}
         FROM audit.log_positions p JOIN audit.entries e ON e.id = p.entry_id
         ORDER BY p.log_index`
      )
      // Stand-ins for removed leaves keep later ones at their index, as far as any checkpoint reaches.
      const signedSize = checkpoints.at(-1)?.size ?? 0
      let expected = 0
      for await (const row of sealedRows) {
        const logIndex = Number(row[0])
        if (logIndex > expected) {
          report.add({
            reason: 'missing_leaf',
            log_index: expected,
            detail: `log_index ${expected}${logIndex - expected > 1 ? ` to ${logIndex - 1}` : ''} has no entry: sealed entries were removed`,
          })
          while (frontier.size < Math.min(logIndex, signedSize)) {
            frontier.append(EMPTY_ROOT)
            reachCheckpoints()
          }
        }
        expected = logIndex + 1
        this.checkEntry(row, logIndex, chains, report)
        frontier.append(leafHash(row[10]!))
        sealed++
        reachCheckpoints()
      }

      let unsealed = 0
      const unsealedRows = snapshot.streamRaw(
        `SELECT NULL, ${ENTRY_COLUMNS} FROM audit.entries e
         WHERE NOT EXISTS (SELECT 1 FROM audit.log_positions p WHERE p.entry_id = e.id)
         ORDER BY e.id`
      )
      for await (const row of unsealedRows) {
        this.checkEntry(row, null, chains, report)
        unsealed++
      }

      for (const checkpoint of checkpoints.slice(next)) {
        report.add({
          reason: 'checkpoint_beyond_log',
          checkpoint_size: checkpoint.size,
          detail: `checkpoint ${checkpoint.size} signs more entries than the log holds (${frontier.size}): sealed entries were removed`,
        })
      }

      for await (const [leadId, lastSeq, lastHash] of snapshot.streamRaw(
        'SELECT lead_id, last_seq, last_hash FROM audit.chain_heads'
      )) {
        const chain = chains.get(leadId!)
        const seq = Number(lastSeq)
        if (!chain) {
          report.add({ reason: 'trail_missing', lead_id: leadId!, lead_seq: 1, detail: `lead ${leadId} has a chain head at ${seq} but no entries` })
          continue
        }
        chain.headSeen = true
        if (chain.seq < seq) {
          report.add({ reason: 'seq_gap', lead_id: leadId!, lead_seq: chain.seq + 1, detail: `the trail ends at ${chain.seq}; its chain head says ${seq}: entries were cut off` })
        } else if (chain.seq > seq || chain.hash !== lastHash) {
          report.add({ reason: 'chain_head_mismatch', lead_id: leadId!, lead_seq: chain.seq, detail: `the chain head (${seq}, ${lastHash}) is not the trail's last entry (${chain.seq}, ${chain.hash})` })
        }
      }
      for (const [leadId, chain] of chains) {
        if (!chain.headSeen) {
          report.add({ reason: 'chain_head_missing', lead_id: leadId, lead_seq: chain.seq, detail: `lead ${leadId} has entries but no chain head` })
        }
      }

      return {
        lead_id: null,
        valid: report.count === 0,
        entries: sealed + unsealed,
        sealed,
        unsealed,
        leads: chains.size,
        checkpoints: checkpoints.length,
        tree_size: frontier.size,
        root: frontier.root(),
        broken_at: report.failures[0] ?? null,
        failures: report.failures,
        failure_counts: report.counts,
        duration_ms: Math.round(performance.now() - started),
      }
    })
  }

  /** row: log_index, id, lead_id, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash */
  private checkEntry(row: Array<string | null>, logIndex: number | null, chains: Map<string, ChainState>, report: Report) {
    const leadId = row[2]!
    const leadSeq = Number(row[3])
    const prevHash = row[9]!
    const stored = row[10]!
    const chain = chains.get(leadId)
    const expectedSeq = (chain?.seq ?? 0) + 1
    const where = { log_index: logIndex, entry_id: row[1]!, lead_id: leadId, lead_seq: leadSeq }
    if (leadSeq !== expectedSeq) {
      report.add({ reason: 'seq_gap', ...where, detail: `lead_seq ${leadSeq} follows ${expectedSeq - 1}` })
    } else if (prevHash !== (chain?.hash ?? GENESIS_HASH)) {
      report.add({ reason: 'prev_hash_mismatch', ...where, detail: `prev_hash is not the hash of lead_seq ${expectedSeq - 1}` })
    }
    const recomputed = fastEntryHash(row[4]!, row[5]!, row[6]!, leadId, leadSeq, row[7], row[8]!, prevHash)
    if (recomputed !== stored) {
      report.add({ reason: 'hash_mismatch', ...where, detail: `the entry's fields hash to ${recomputed}, not its stored ${stored}` })
    }
    if (chain) {
      chain.seq = leadSeq
      chain.hash = stored
    } else {
      chains.set(leadId, { seq: leadSeq, hash: stored, headSeen: false })
    }
  }

  private checkCheckpoint(checkpoint: StoredCheckpoint, frontier: Frontier, report: Report) {
    const root = frontier.root()
    if (root !== checkpoint.root) {
      report.add({
        reason: 'checkpoint_root_mismatch',
        checkpoint_size: checkpoint.size,
        log_index: checkpoint.size - 1,
        detail: `the first ${checkpoint.size} entries hash to root ${root}; the checkpoint signed ${checkpoint.root}`,
      })
    }
    const signature = verifyCheckpoint(checkpoint, this.signer.publicKey)
    if (!signature.valid) {
      report.add({
        reason: 'checkpoint_signature_invalid',
        checkpoint_size: checkpoint.size,
        detail: `checkpoint ${checkpoint.size}: ${signature.reason}`,
      })
    }
  }
}

class Report {
  failures: LogFailure[] = []
  counts: Partial<Record<FailureReason, number>> = {}
  count = 0

  add(failure: LogFailure) {
    this.count++
    this.counts[failure.reason] = (this.counts[failure.reason] ?? 0) + 1
    if (this.failures.length < MAX_LISTED) this.failures.push(failure)
  }
}

