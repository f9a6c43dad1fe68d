import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import TenancyService from '#services/platform/tenancy_service'
import OutboxService from '#services/webhooks/outbox_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import LeadService from '#services/leads/lead_service'
import { enqueueRouting } from '#services/routing/routing_queue'
import { insertTogether, rawPart } from '#services/sql/insert_together'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'

export const REVIEW_DECISIONS = ['approve', 'reject'] as const
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number]
export type ReviewInput = { decision: ReviewDecision; reason?: string }

/** The reason a reviewer's rejection adds to the lead's reasons, beside the rules that flagged it. */
export const REVIEW_REJECTED = 'review_rejected'

/** A lead as the review reads it, from its facts: whose it is. */
export type ReviewableLead = { id: string; publisher_id: string }

type LockedLead = {
  id: string
  status: string
  environment: 'live' | 'sandbox'
  reasons: unknown[]
} & Record<string, unknown>

/**
 * The operator's review of a lead that a quality rule flagged (held for
 * review). Approving makes it accepted and sends it on to routing exactly
 * as intake does; rejecting stores the reviewer's reason with the rules'
 * reasons. Either way the lead, its facts, an audit entry with the
 * reviewer as actor and the `lead.reviewed` event commit together.
 */
@inject()
export default class LeadReviewService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService,
    protected leads: LeadService
  ) {}

  /**
   * The lead if the principal may see it, else 404: asked before the
   * policy, so a lead out of sight answers 404 and only a visible one 403.
   */
  async findVisible(principal: Principal, leadId: string): Promise<ReviewableLead> {
    const fact = await this.leads.visibleFacts(principal).where('lead_id', leadId).first()
    if (!fact) throw ApiProblem.notFound('lead')
    return { id: fact.id, publisher_id: fact.publisher_id }
  }

  /**
   * Decides a flagged lead; any other status (a second review included)
   * answers 409 `lead_not_flagged` and changes nothing. Returns the lead as
   * GET /v1/leads/{id} shows it to the principal.
   */
  async review(principal: Principal, lead: ReviewableLead, input: ReviewInput) {
    const publisher = await Publisher.findOrFail(lead.publisher_id)
    const decided = await this.tenancy.run(publisher, (trx) =>
      this.decide(trx, principal, publisher, lead.id, input)
    )
    // As intake: routing starts after the commit (a sandbox lead meets the sandbox's rules); if Redis
    // is away, the routing sweeper finds the lead.
    if (decided.status === 'accepted') await enqueueRouting(lead.id)
    return this.leads.findVisible(principal, lead.id)
  }

  private async decide(
    trx: TransactionClientContract,
    principal: Principal,
    publisher: Publisher,
    leadId: string,
    input: ReviewInput
  ) {
    // The lead and its chain head in one statement, in that order, as routing takes them.
    const result = await trx.rawQuery(
      `SELECT l.id, l.status, l.environment, l.reasons, ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ? FOR UPDATE OF l, h`,
      [leadId]
    )
    const row: LockedLead | undefined = result.rows[0]
    if (!row) throw ApiProblem.notFound('lead')
    if (row.status !== 'flagged') {
      throw ApiProblem.conflict(
        'lead_not_flagged',
        `Only a flagged lead is reviewed; this lead is ${row.status}.`
      )
    }

    const now = new Date()
    const status = input.decision === 'approve' ? 'accepted' : 'rejected'
    const reason = input.reason ?? null
    const rejection = { code: REVIEW_REJECTED, action: 'reject', message: reason }
    const reasons = status === 'rejected' ? [...row.reasons, rejection] : row.reasons
    // The note is free text, so it stays in the personal tier; the audit entry names only who decided what.
    const review = {
      decision: input.decision,
      reason,
      reviewer: principal.actor,
      reviewed_at: now.toISOString(),
    }
    const trail = this.audit.extendTrailInserts([
      {
        head: chainHeadOf(row),
        input: {
          publisherId: publisher.id,
          leadId,
          environment: row.environment,
          entries: [
            {
              event: `lead.${status}`,
              actor: principal.actor,
              statusFrom: 'flagged',
              statusTo: status,
            },
          ],
        },
      },
    ])
    const events = this.outbox.stage(
      [
        {
          type: 'lead.reviewed',
          publisherId: publisher.id,
          leadId,
          environment: row.environment,
          data: {
            lead_id: leadId,
            publisher: publisher.slug,
            status,
            reason,
            reviewed_at: now.toISOString(),
          },
        },
      ],
      now
    )
    const endpoints = await insertTogether(trx, [
      rawPart(
        `UPDATE leads SET status = ?, reasons = ?::jsonb, review = ?::jsonb, updated_at = ?
          WHERE id = ?`,
        [status, JSON.stringify(reasons), JSON.stringify(review), now, leadId]
      ),
      rawPart(
        `UPDATE public.lead_facts SET status = ?, updated_at = ?,
           reason_codes = CASE WHEN ? THEN array_append(reason_codes, ?) ELSE reason_codes END
          WHERE lead_id = ?`,
        [status, now, status === 'rejected', REVIEW_REJECTED, leadId]
      ),
      ...trail.parts,
      events.insert,
      this.outbox.endpointsFor(events.published),
    ])
    await this.outbox.deliver(trx, events, endpoints as SubscribedEndpoint[])
    return { status, environment: row.environment }
  }
}
