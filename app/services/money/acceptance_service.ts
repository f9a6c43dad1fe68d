import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import TenancyService from '#services/platform/tenancy_service'
import OutboxService from '#services/webhooks/outbox_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import { acceptanceMovement, ledgerInsert } from '#services/money/ledger'
import {
  NO_OPEN_DISPUTE,
  leadFactsUpdate,
  leadSummaryOf,
  lockSalesOf,
  saleOf,
} from '#services/money/sale_rows'
import { insertTogether, rawPart } from '#services/sql/insert_together'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'

/** The actor of what the settlement clock does on its own. */
export const SETTLEMENT_ACTOR = 'system:settlement'

type LockedLead = {
  id: string
  provenance: { source: string | null; campaign: string | null }
  consent: { given: boolean; timestamp: string | null }
}

/**
 * Closes return windows, sale by sale: a sale whose window (its own
 * buyer's, or its rule's) has passed with no open dispute about it is
 * final. Its amounts move from pending to payable, its lead's trail gets
 * `sale.accepted`, its buyer's endpoints get `payout.processed` (kind
 * `buyer_acceptance`) and the lead's facts their summary, all in one
 * transaction per publisher. A shared lead's other sales keep their own
 * windows. A sandbox sale becomes final the same way, on its sandbox
 * accounts, trail and endpoints.
 */
@inject()
export default class AcceptanceService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService
  ) {}

  /** Sales whose window closed by `now`, up to `batch` of them; answers how many became final. */
  async closeWindows(now = new Date(), batch = 500) {
    const due = await db.rawQuery(
      `SELECT s.lead_id, p.schema_name FROM public.sales s
         JOIN publishers p ON p.id = s.publisher_id
        WHERE s.settlement = 'pending' AND s.settles_at <= ? AND ${NO_OPEN_DISPUTE}
        ORDER BY s.settles_at LIMIT ?`,
      [now, batch]
    )
    const bySchema = new Map<string, Set<string>>()
    for (const row of due.rows as { lead_id: string; schema_name: string }[]) {
      bySchema.set(row.schema_name, (bySchema.get(row.schema_name) ?? new Set()).add(row.lead_id))
    }
    let accepted = 0
    for (const [schemaName, leadIds] of bySchema) {
      accepted += await this.tenancy.run({ schemaName }, (trx) =>
        this.accept(trx, [...leadIds], now)
      )
    }
    return accepted
  }

  private async accept(trx: TransactionClientContract, leadIds: string[], now: Date) {
    // Leads and chain heads first, then the facts and the sales: the order routing and disputes take them in.
    const locked = await trx.rawQuery(
      `SELECT l.id, l.provenance, l.consent, ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ANY(?::uuid[]) ORDER BY l.id FOR UPDATE OF l, h`,
      [leadIds]
    )
    // Read again under the locks: a dispute opened meanwhile holds its sale.
    const salesOf = await lockSalesOf(trx, leadIds)
    const sales = [...salesOf.values()]
      .flat()
      .filter(
        (sale) =>
          sale.settlement === 'pending' && new Date(sale.settles_at) <= now && !sale.disputed
      )
    if (sales.length === 0) return 0
    const labels = await trx.rawQuery(
      `SELECT id, slug FROM public.labels WHERE id = ANY(?::uuid[])`,
      [[...new Set(sales.map((sale) => sale.label_id).filter((id) => id !== null))]]
    )
    const slugOf = new Map<string, string>(labels.rows.map((row: any) => [row.id, row.slug]))
    const leads = new Map<string, LockedLead & Record<string, any>>(
      locked.rows.map((row: any) => [row.id, row])
    )
    const acceptedLeads = [...new Set(sales.map((sale) => sale.lead_id))]
    for (const sale of sales) sale.settlement = 'payable'
    // One entry per sale that became final: a shared lead's sales each close their own window.
    const trail = this.audit.extendTrailInserts(
      acceptedLeads.map((leadId) => {
        const final = sales.filter((sale) => sale.lead_id === leadId)
        return {
          head: chainHeadOf(leads.get(leadId)!),
          input: {
            publisherId: final[0].publisher_id,
            leadId,
            environment: final[0].environment,
            entries: final.map(() => ({
              event: 'sale.accepted',
              actor: SETTLEMENT_ACTOR,
              statusFrom: 'matched',
              statusTo: 'matched',
            })),
          },
        }
      })
    )
    const events = this.outbox.stage(
      sales.map((sale) => {
        const lead = leads.get(sale.lead_id)!
        return {
          type: 'payout.processed',
          publisherId: null,
          buyerId: sale.buyer_id,
          leadId: sale.lead_id,
          // A sandbox sale tells the buyer's sandbox endpoints only (docs/money.md, "Sandbox").
          environment: sale.environment,
          data: {
            kind: 'buyer_acceptance',
            lead_id: sale.lead_id,
            buyer_id: sale.buyer_id,
            amount_cents: sale.price_cents,
            currency: sale.currency,
            provenance: {
              source: lead.provenance?.source ?? null,
              campaign: lead.provenance?.campaign ?? null,
              label: sale.label_id ? (slugOf.get(sale.label_id) ?? null) : null,
            },
            consent: {
              given: lead.consent?.given ?? false,
              timestamp: lead.consent?.timestamp ?? null,
            },
            accepted_at: now.toISOString(),
          },
        }
      }),
      now
    )
    const ledger = sales.flatMap((sale) => acceptanceMovement(saleOf(sale)))
    const endpoints = await insertTogether(trx, [
      ...(ledger.length ? [ledgerInsert(ledger)] : []),
      rawPart(`UPDATE public.sales SET settlement = 'payable' WHERE id = ANY(?::uuid[])`, [
        sales.map((sale) => sale.id),
      ]),
      leadFactsUpdate(
        acceptedLeads.map((leadId) => ({ leadId, summary: leadSummaryOf(salesOf.get(leadId)!) })),
        now
      ),
      ...trail.parts,
      events.insert,
      this.outbox.endpointsFor(
        [...new Set(sales.map((sale) => `${sale.environment}/${sale.buyer_id}`))].map((key) => {
          const [environment, buyerId] = key.split('/') as [Environment, string]
          return { publisherId: null, buyerId, environment }
        })
      ),
    ])
    await this.outbox.deliver(trx, events, endpoints as SubscribedEndpoint[])
    return sales.length
  }
}
