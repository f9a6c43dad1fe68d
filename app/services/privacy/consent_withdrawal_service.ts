import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import TenancyService from '#services/platform/tenancy_service'
import LeadService from '#services/leads/lead_service'
import OutboxService from '#services/webhooks/outbox_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import { insertTogether } from '#services/sql/insert_together'

/** A lead as the withdrawal reads it from its facts: whose it is and who bought it. */
export type WithdrawableLead = { id: string; publisher_id: string; buyer_id: string | null }

/**
 * The person withdrew consent (docs/privacy.md, "Consent withdrawal"). The lead's consent gets
 * `revoked_at`, its trail `consent.revoked`, and `consent.revoked` goes to the publisher's and
 * the holding buyer's endpoints, all in one transaction. Routing skips a lead whose consent was
 * revoked, and deliveries to integration adapters still waiting for it are stopped. The lead's
 * status and facts stay as they were: money and reports are about what already happened.
 */
@inject()
export default class ConsentWithdrawalService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService,
    protected leads: LeadService
  ) {}

  /** The lead if the principal may see it, else 404 (asked before the policy, as review does). */
  async findVisible(principal: Principal, leadId: string): Promise<WithdrawableLead> {
    const fact = await this.leads.visibleFacts(principal).where('lead_id', leadId).first()
    if (!fact) throw ApiProblem.notFound('lead')
    return { id: fact.id, publisher_id: fact.publisher_id, buyer_id: fact.buyer_id ?? null }
  }

  async withdraw(principal: Principal, lead: WithdrawableLead) {
    const publisher = await Publisher.findOrFail(lead.publisher_id)
    return this.tenancy.run(publisher, (trx) => this.record(trx, principal, publisher, lead))
  }

  private async record(
    trx: TransactionClientContract,
    principal: Principal,
    publisher: Publisher,
    lead: WithdrawableLead
  ) {
    const locked = await trx.rawQuery(
      `SELECT l.id, l.status, l.environment, l.consent, ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ? FOR UPDATE OF l, h`,
      [lead.id]
    )
    const row = locked.rows[0]
    if (!row) throw ApiProblem.notFound('lead')
    if (row.consent?.revoked_at) {
      throw ApiProblem.conflict(
        'consent_already_revoked',
        `Consent for this lead was withdrawn at ${row.consent.revoked_at}.`
      )
    }
    const now = new Date()
    const revokedAt = now.toISOString()
    const trail = this.audit.extendTrailInserts([
      {
        head: chainHeadOf(row),
        input: {
          publisherId: publisher.id,
          leadId: lead.id,
          environment: row.environment,
          entries: [
            {
              event: 'consent.revoked',
              actor: principal.actor,
              statusFrom: row.status,
              statusTo: row.status,
            },
          ],
        },
      },
    ])
    await insertTogether(trx, trail.parts)
    await trx.rawQuery(
      `UPDATE leads SET consent = consent || jsonb_build_object('revoked_at', ?::text), updated_at = ?
        WHERE id = ?`,
      [revokedAt, now, lead.id]
    )
    // Adapters sync the lead to other systems: what they have not sent yet is not sent.
    await trx.rawQuery(
      `UPDATE public.webhook_deliveries d
          SET status = 'exhausted', last_error = 'consent_revoked', next_attempt_at = NULL,
              enqueued_at = NULL, updated_at = ?
         FROM public.outbox_events e, public.webhook_endpoints w
        WHERE d.event_id = e.id AND w.id = d.endpoint_id AND e.lead_id = ?
          AND w.plugin IS NOT NULL AND d.status IN ('pending', 'failed')`,
      [now, lead.id]
    )
    // Every buyer that bought it hears it: a shared lead has several. The publisher hears it once.
    const sold = await trx.from('public.sales').where('lead_id', lead.id).select('buyer_id')
    const buyers = [
      ...new Set([lead.buyer_id, ...sold.map((sale: { buyer_id: string }) => sale.buyer_id)]),
    ].filter((buyerId): buyerId is string => buyerId !== null)
    const data = { lead_id: lead.id, publisher: publisher.slug, revoked_at: revokedAt }
    await this.outbox.publish(
      trx,
      (buyers.length > 0 ? buyers : [null]).map((buyerId, index) => ({
        type: 'consent.revoked',
        publisherId: index === 0 ? publisher.id : null,
        buyerId,
        leadId: lead.id,
        environment: row.environment,
        data,
      })),
      now
    )
    return { lead_id: lead.id, status: row.status, consent: { revoked_at: revokedAt } }
  }
}
