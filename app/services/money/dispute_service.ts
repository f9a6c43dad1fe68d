import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { uuidv7 } from 'uuidv7'
import type Principal from '#auth/principal'
import moneyConfig from '#config/money'
import ApiProblem from '#exceptions/api_problem'
import AuditChainService from '#services/audit/audit_chain_service'
import ConsentEvidenceService from '#services/audit/consent_evidence_service'
import TenancyService from '#services/platform/tenancy_service'
import OutboxService from '#services/webhooks/outbox_service'
import { policyForLabel } from '#services/money/settlement_policy_service'
import { type AcceptedFile } from '#services/money/dispute_files'
import {
  type DisputeOutcome,
  type DisputeReason,
  OPEN_STATUSES,
  RULE,
  consentProofVerifies,
  duplicateConfirmed,
} from '#services/money/dispute_rules'
import {
  DisputeChanges,
  type DisputeRow,
  type LockedSale,
  lockDispute,
  lockSale,
} from '#services/money/dispute_writes'
import DisputeReader from '#services/money/dispute_reader'
import { isUniqueViolation } from '#services/sql/unique_violation'

const HOUR_MS = 3_600_000
const NOBODY = '00000000-0000-0000-0000-000000000000'

export type OpenInput = { reason: DisputeReason; details?: string | null }
export type RespondInput = { text: string; files: AcceptedFile[] }
export type DecideInput = { outcome: DisputeOutcome; note?: string | null }

function closed(dispute: DisputeRow) {
  return ApiProblem.conflict(
    'dispute_closed',
    `This dispute is ${dispute.status} already; nothing more can be done with it.`
  )
}

/**
 * Disputes (returns), docs/money.md "Disputes". A buyer opens one on its sale of a lead while the
 * sale is pending (each buyer of a shared lead disputes its own sale); the rules decide what they can at once (a verifying consent proof, a confirmed
 * duplicate), the publisher answers before its deadline, the operator decides, or the settlement
 * clock applies the deadlines. Each step locks the lead and its chain head, then the facts and
 * the sales, then the dispute, and writes the dispute, its thread, the money, the audit entries and the events
 * in one transaction.
 */
@inject()
export default class DisputeService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected evidence: ConsentEvidenceService,
    protected outbox: OutboxService,
    protected reader: DisputeReader
  ) {}

  /** Opens a dispute on the buyer's sale of a lead; answers the new dispute's id. */
  async open(principal: Principal, leadId: string, input: OpenInput, now = new Date()) {
    // Only a buyer the lead was sold to learns that it exists; each disputes its own sale.
    const buyerId = principal.buyerId ?? NOBODY
    const sold = await db
      .from('sales as s')
      .join('publishers as p', 'p.id', 's.publisher_id')
      .where('s.lead_id', leadId)
      .where('s.buyer_id', buyerId)
      .where('s.environment', principal.environment)
      .select('s.label_id', 'p.schema_name', 'p.quality_rules')
      .first()
    if (!sold) throw ApiProblem.notFound('lead')
    const policy = await policyForLabel(sold.label_id)
    try {
      return await this.tenancy.run({ schemaName: sold.schema_name }, async (trx) => {
        const held = await lockSale(trx, leadId, buyerId)
        if (!held) throw ApiProblem.notFound('lead')
        const { sale } = held
        if (sale.settlement !== 'pending' || new Date(sale.settles_at) <= now) {
          throw ApiProblem.conflict(
            'outside_return_window',
            sale.settlement === 'pending'
              ? `The return window of this lead closed at ${new Date(sale.settles_at).toISOString()}.`
              : `This sale is ${sale.settlement}; a lead is returned only while its sale is pending.`
          )
        }
        const open = await trx
          .from('public.disputes')
          .where('lead_id', leadId)
          .where('buyer_id', buyerId)
          .whereIn('status', [...OPEN_STATUSES])
          .first()
        if (open) throw disputeOpen()

        const respondBy = new Date(now.getTime() + policy.response_hours * HOUR_MS)
        const dispute: DisputeRow = {
          id: uuidv7(),
          lead_id: leadId,
          publisher_id: sale.publisher_id,
          buyer_id: sale.buyer_id,
          label_id: sale.label_id,
          routing_rule_id: sale.routing_rule_id,
          reason: input.reason,
          status: 'open',
          // The sale's own money: a shared lead's other buyers paid their own prices.
          price_cents: sale.price_cents,
          payout_cents: sale.payout_cents,
          currency: sale.currency.trim(),
          delivered_at: sale.sold_at,
          opened_at: now,
          respond_by: respondBy,
          decide_by: new Date(respondBy.getTime() + policy.decision_hours * HOUR_MS),
          responded_at: null,
          decided_at: null,
          decision: null,
          decided_by: null,
          withdrawn_at: null,
          updated_at: now,
          environment: sale.environment,
        }
        const changes = new DisputeChanges(held, dispute, true)
        if (input.details) changes.message('buyer', principal.actor, input.details, [], now)
        changes.trail('dispute.opened', principal.actor)
        changes.announce('dispute.opened', now)
        // The rules decide first: what the platform can prove needs nobody's judgement.
        const ruled = await this.ruleAtOpening(trx, held, input.reason, sold.quality_rules)
        if (ruled) changes.decide(ruled.outcome, ruled.rule, now)
        await changes.commit(trx, this.writers, now)
        return dispute.id
      })
    } catch (error) {
      // Two opens at once: the partial unique index lets one stand.
      if (isUniqueViolation(error, 'disputes_one_open_per_sale')) throw disputeOpen()
      throw error
    }
  }

  /** The publisher's answer, with files, before its deadline. */
  async respond(principal: Principal, id: string, input: RespondInput, now = new Date()) {
    const visible = await this.reader.findVisible(principal, id)
    await this.step(visible, async (trx, sale, dispute) => {
      if (!OPEN_STATUSES.includes(dispute.status)) throw closed(dispute)
      if (now >= new Date(dispute.respond_by)) {
        throw ApiProblem.conflict(
          'response_deadline_passed',
          `Answers were due by ${new Date(dispute.respond_by).toISOString()}.`
        )
      }
      Object.assign(dispute, {
        status: 'responded',
        responded_at: dispute.responded_at ?? now,
        updated_at: now,
      })
      const changes = new DisputeChanges(sale, dispute, false)
      const fileIds = changes.message('publisher', principal.actor, input.text, input.files, now)
      changes.trail('dispute.responded', principal.actor)
      // The audit trail keeps ids and statuses only; the files' digests travel in the event and the thread.
      changes.announce(
        'dispute.responded',
        now,
        input.files.map((file, index) => ({
          id: fileIds[index],
          sha256: file.sha256,
          size_bytes: file.sizeBytes,
          content_type: file.contentType,
        }))
      )
      await changes.commit(trx, this.writers, now)
    })
  }

  /** The operator's decision, with an optional note for the thread. */
  async decide(principal: Principal, id: string, input: DecideInput, now = new Date()) {
    const visible = await this.reader.findVisible(principal, id)
    await this.step(visible, async (trx, sale, dispute) => {
      if (!OPEN_STATUSES.includes(dispute.status)) throw closed(dispute)
      const changes = new DisputeChanges(sale, dispute, false)
      if (input.note) changes.message('operator', principal.actor, input.note, [], now)
      changes.decide(input.outcome, principal.actor, now)
      await changes.commit(trx, this.writers, now)
    })
  }

  /** The buyer takes its dispute back: closed without a decision, the sale goes on as if none was opened. */
  async withdraw(principal: Principal, id: string, now = new Date()) {
    const visible = await this.reader.findVisible(principal, id)
    await this.step(visible, async (trx, sale, dispute) => {
      if (!OPEN_STATUSES.includes(dispute.status)) throw closed(dispute)
      Object.assign(dispute, { status: 'withdrawn', withdrawn_at: now, updated_at: now })
      const changes = new DisputeChanges(sale, dispute, false)
      changes.trail('dispute.withdrawn', principal.actor)
      // No event type of its own: `dispute.decided` with status `withdrawn` and no decision closes it for both parties.
      changes.announce('dispute.decided', now)
      await changes.commit(trx, this.writers, now)
    })
  }

  /**
   * The deadlines, for the settlement clock: an open dispute nobody answered by `respond_by` is
   * upheld; one still undecided at `decide_by` gets its label's default outcome. One transaction
   * per dispute; a dispute that fails is logged and left for the next turn. Answers how many
   * were decided.
   */
  async enforceDeadlines(now = new Date()) {
    const failed: string[] = []
    let decided = 0
    for (;;) {
      const due = await db.rawQuery(
        `SELECT d.id, d.lead_id, d.publisher_id, d.buyer_id, p.schema_name FROM disputes d
           JOIN publishers p ON p.id = d.publisher_id
          WHERE d.status IN ('open', 'responded') AND d.respond_by <= ?
            AND (d.status = 'open' OR d.decide_by <= ?) AND NOT (d.id = ANY(?::uuid[]))
          ORDER BY d.respond_by LIMIT ?`,
        [now, now, failed, moneyConfig.disputes.deadlineBatch]
      )
      for (const row of due.rows as (DisputeRow & { schema_name: string })[]) {
        try {
          if (
            await this.step(row, (trx, sale, dispute) =>
              this.applyDeadline(trx, sale, dispute, now)
            )
          )
            decided++
        } catch (error) {
          failed.push(row.id)
          logger.error({ err: error, dispute_id: row.id }, 'dispute deadline: not applied')
        }
      }
      if (due.rows.length < moneyConfig.disputes.deadlineBatch) return decided
    }
  }

  private async applyDeadline(
    trx: TransactionClientContract,
    sale: LockedSale,
    dispute: DisputeRow,
    now: Date
  ) {
    // Read again under the locks: an answer or a decision may have come in meanwhile.
    if (!OPEN_STATUSES.includes(dispute.status)) return false
    const changes = new DisputeChanges(sale, dispute, false)
    if (dispute.status === 'open' && new Date(dispute.respond_by) <= now) {
      changes.decide('upheld', RULE.noResponse, now)
    } else if (new Date(dispute.decide_by) <= now) {
      const policy = await policyForLabel(dispute.label_id)
      changes.decide(policy.default_outcome, RULE.defaultOutcome, now)
    } else {
      return false
    }
    await changes.commit(trx, this.writers, now)
    return true
  }

  private get writers() {
    return { audit: this.audit, outbox: this.outbox }
  }

  /** What the rules decide when the dispute is opened, if anything. */
  private async ruleAtOpening(
    trx: TransactionClientContract,
    sale: LockedSale,
    reason: DisputeReason,
    qualityRules: any
  ): Promise<{ outcome: DisputeOutcome; rule: string } | null> {
    if (reason === 'consent_disputed') {
      const verifies = await consentProofVerifies(trx, sale.lead, sale.head, {
        audit: this.audit,
        evidence: this.evidence,
      })
      return verifies ? { outcome: 'rejected', rule: RULE.consentProof } : null
    }
    if (reason === 'duplicate') {
      const confirmed = await duplicateConfirmed(trx, sale.lead, qualityRules ?? null)
      return confirmed ? { outcome: 'upheld', rule: RULE.duplicate } : null
    }
    return null
  }

  /**
   * One step on an existing dispute, in its publisher's schema with the locks taken in order
   * (lead and chain head, facts, dispute).
   */
  private async step<T>(
    dispute: Pick<DisputeRow, 'id' | 'lead_id' | 'publisher_id' | 'buyer_id'> & {
      schema_name?: string
    },
    work: (trx: TransactionClientContract, sale: LockedSale, dispute: DisputeRow) => Promise<T>
  ) {
    const publisher = dispute.schema_name
      ? { schema_name: dispute.schema_name }
      : await db.from('publishers').where('id', dispute.publisher_id).firstOrFail()
    return this.tenancy.run({ schemaName: publisher.schema_name }, async (trx) => {
      const sale = await lockSale(trx, dispute.lead_id, dispute.buyer_id)
      const locked = await lockDispute(trx, dispute.id)
      if (!sale || !locked) throw ApiProblem.notFound('dispute')
      return work(trx, sale, locked)
    })
  }
}

function disputeOpen() {
  return ApiProblem.conflict(
    'dispute_open',
    'A dispute about your sale of this lead is open already; one at a time.'
  )
}

/** One turn of the dispute deadlines, for the settlement clock (settlement_clock.ts). */
export async function enforceDisputeDeadlines(now = new Date()) {
  const disputes = await app.container.make(DisputeService)
  return disputes.enforceDeadlines(now)
}
