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
import { NO_OPEN_DISPUTE, SALE_COLUMNS, type SaleFact, saleOf } from '#services/money/sale_rows'
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
 * Closes return windows: a sold lead whose window has passed with no open
 * dispute is final. Its amounts move from pending to payable, its trail
 * gets `sale.accepted`, and the buyer's endpoints get `payout.processed`
 * (kind `buyer_acceptance`), all in one transaction per publisher. A
 * sandbox sale becomes final the same way, on its sandbox accounts, trail
 * and endpoints.
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
      `SELECT f.lead_id, f.publisher_id, p.schema_name FROM lead_facts f
         JOIN publishers p ON p.id = f.publisher_id
        WHERE f.settlement = 'pending' AND f.settles_at <= ? AND ${NO_OPEN_DISPUTE}
        ORDER BY f.settles_at LIMIT ?`,
      [now, batch]
    )
    const bySchema = new Map<string, string[]>()
    for (const row of due.rows as { lead_id: string; schema_name: string }[]) {
      bySchema.set(row.schema_name, [...(bySchema.get(row.schema_name) ?? []), row.lead_id])
    }
    let accepted = 0
    for (const [schemaName, leadIds] of bySchema) {
      accepted += await this.tenancy.run({ schemaName }, (trx) => this.accept(trx, leadIds, now))
    }
    return accepted
  }

  private async accept(trx: TransactionClientContract, leadIds: string[], now: Date) {
    // Leads and chain heads first, then the facts: the order routing and disputes take them in.
    const locked = await trx.rawQuery(
      `SELECT l.id, l.provenance, l.consent, ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ANY(?::uuid[]) ORDER BY l.id FOR UPDATE OF l, h`,
      [leadIds]
    )
    const facts = await trx.rawQuery(
      `SELECT ${SALE_COLUMNS}, lb.slug AS label_slug FROM public.lead_facts f
         LEFT JOIN public.labels lb ON lb.id = f.label_id
        WHERE f.lead_id = ANY(?::uuid[]) AND f.settlement = 'pending' AND f.settles_at <= ?
          AND ${NO_OPEN_DISPUTE}
        ORDER BY f.lead_id FOR UPDATE OF f`,
      [leadIds, now]
    )
    const sales = facts.rows as (SaleFact & { label_slug: string | null })[]
    if (sales.length === 0) return 0
    const leads = new Map<string, LockedLead & Record<string, any>>(
      locked.rows.map((row: any) => [row.id, row])
    )
    const trail = this.audit.extendTrailInserts(
      sales.map((sale) => ({
        head: chainHeadOf(leads.get(sale.lead_id)!),
        input: {
          publisherId: sale.publisher_id,
          leadId: sale.lead_id,
          environment: sale.environment,
          entries: [
            {
              event: 'sale.accepted',
              actor: SETTLEMENT_ACTOR,
              statusFrom: 'matched',
              statusTo: 'matched',
            },
          ],
        },
      }))
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
              label: sale.label_slug,
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
      rawPart(
        `UPDATE public.lead_facts SET settlement = 'payable', updated_at = ?
          WHERE lead_id = ANY(?::uuid[])`,
        [now, sales.map((sale) => sale.lead_id)]
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
