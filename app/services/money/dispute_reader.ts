import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AuditChainService, { type Verification } from '#services/audit/audit_chain_service'
import ConsentEvidenceService, {
  type ConsentEvidence,
} from '#services/audit/consent_evidence_service'
import { assertFiltersAllowed, environmentWall } from '#services/leads/lead_service'
import TenancyService from '#services/platform/tenancy_service'
import type { DisputeStatus } from '#services/money/dispute_rules'
import type { Author, DisputeRow } from '#services/money/dispute_writes'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'

const NOBODY = '00000000-0000-0000-0000-000000000000'

export type DisputeFilters = PageRequest & {
  status?: DisputeStatus
  environment?: Environment
  publisher_id?: string
  buyer_id?: string
}

export type ThreadFile = { id: string; filename: string; size_bytes: number; sha256: string }
export type ThreadMessage = {
  id: string
  author: Author
  text: string | null
  files: ThreadFile[]
  created_at: Date
}

/** A dispute with what its page shows: the thread, the lead's consent evidence and its trail's verification. */
export type DisputeDetail = {
  dispute: DisputeRow
  thread: ThreadMessage[]
  evidence: (ConsentEvidence & { text: string | null }) | null
  verification: Verification
}

/**
 * Reading disputes for whoever asks: the operator all, a publisher those about its leads, a
 * buyer those it opened. Another owner's dispute answers 404. The environment is a wall, as for
 * leads: a publisher's or buyer's credential sees the disputes of its own environment only, a
 * sandbox operator key sandbox ones only; the live operator reads any one by its id (it decides
 * sandbox disputes too) and lists one environment at a time, live unless it asks.
 */
@inject()
export default class DisputeReader {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected evidence: ConsentEvidenceService
  ) {}

  visible(principal: Principal) {
    const query = db.from('disputes').select('disputes.*')
    environmentWall(query, principal)
    if (principal.kind === 'publisher') {
      query.where('publisher_id', principal.publisherId ?? NOBODY)
    } else if (principal.kind === 'buyer') {
      query.where('buyer_id', principal.buyerId ?? NOBODY)
    } else if (!principal.isOperator) {
      query.whereRaw('false')
    }
    return query
  }

  async findVisible(principal: Principal, id: string): Promise<DisputeRow> {
    const row = await this.visible(principal).where('id', id).first()
    if (!row) throw ApiProblem.notFound('dispute')
    return row
  }

  /** Newest first. Who may filter by whom follows the leads' rules: only the operator names a buyer or a publisher. */
  async list(principal: Principal, filters: DisputeFilters) {
    assertFiltersAllowed(principal, {
      buyer_id: filters.buyer_id,
      environment: filters.environment,
    })
    if (filters.publisher_id && !principal.isOperator) {
      assertFiltersAllowed(principal, { publisher: filters.publisher_id })
      if (filters.publisher_id !== principal.publisherId) {
        return { data: [] as DisputeRow[], nextCursor: null }
      }
    }
    const query = this.visible(principal)
    query.where('environment', filters.environment ?? principal.environment)
    if (filters.status) query.where('status', filters.status)
    if (filters.publisher_id) query.where('publisher_id', filters.publisher_id)
    if (filters.buyer_id) query.where('buyer_id', filters.buyer_id)
    return paginate<DisputeRow>(query, filters)
  }

  /** One dispute with its thread (from the publisher's schema), consent evidence and trail check. */
  async show(principal: Principal, id: string): Promise<DisputeDetail> {
    const dispute = await this.findVisible(principal, id)
    const publisher = await db
      .from('publishers')
      .where('id', dispute.publisher_id)
      .select('schema_name')
      .firstOrFail()
    const [thread, evidence, verification] = await Promise.all([
      this.tenancy.run({ schemaName: publisher.schema_name }, (trx) => threadOf(trx, dispute.id)),
      this.consentEvidence(dispute),
      this.audit.verify(dispute.lead_id, dispute.publisher_id),
    ])
    return { dispute, thread, evidence, verification }
  }

  /** The evidence with the wording it commits to, as the lead's page shows it; null for none. */
  private async consentEvidence(dispute: DisputeRow) {
    const evidence = await this.evidence.evidenceFor(dispute.publisher_id, dispute.lead_id)
    if (!evidence) return null
    const wording = await this.evidence.textFor(evidence.text_digest)
    return { ...evidence, text: wording?.text ?? null }
  }
}

/** The messages in the order they were written (UUIDv7 ids), each with its files' digests, never their bytes. */
async function threadOf(
  trx: TransactionClientContract,
  disputeId: string
): Promise<ThreadMessage[]> {
  const messages = await trx
    .from('dispute_messages')
    .where('dispute_id', disputeId)
    .select('id', 'author', 'text', 'created_at')
    .orderBy('id')
  const files = await trx
    .from('dispute_files')
    .where('dispute_id', disputeId)
    .select('id', 'message_id', 'filename', 'size_bytes', 'sha256')
    .orderBy('id')
  return messages.map((message) => ({
    ...message,
    files: files
      .filter((file) => file.message_id === message.id)
      .map(({ id, filename, size_bytes: sizeBytes, sha256 }) => ({
        id,
        filename,
        size_bytes: Number(sizeBytes),
        sha256,
      })),
  }))
}
