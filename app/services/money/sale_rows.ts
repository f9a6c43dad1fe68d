import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import type { Sale } from '#services/money/ledger'
import { type Column, type Part, rawPart, rowsOf } from '#services/sql/insert_together'

/** Where a sale's money stands: pending during its return window, then payable, then paid out; or returned. */
export type Settlement = 'pending' | 'payable' | 'returned' | 'paid_out'

/**
 * The columns of a sale that money reads (`public.sales` as `s`). A sale is the unit of money: a
 * shared lead has one per buyer, each with its own window, dispute and payout line.
 */
export const SALE_COLUMNS = `s.id, s.lead_id, s.publisher_id, s.buyer_id, s.label_id, s.price_cents,
  s.payout_cents, s.currency, s.settlement, s.settles_at, s.sold_at, s.routing_rule_id,
  s.environment, s.payout_id`

export type SaleRow = {
  id: string
  lead_id: string
  publisher_id: string
  buyer_id: string
  label_id: string | null
  price_cents: number
  payout_cents: number
  currency: string
  settlement: Settlement
  settles_at: Date
  sold_at: Date
  routing_rule_id: string | null
  environment: Environment
  payout_id: string | null
}

/** A sale as `lockSalesOf` reads it: with whether a dispute about it is open. */
export type LockedSaleRow = SaleRow & { disputed: boolean }

/** A sale's money as the ledger books it. */
export function saleOf(
  row: Pick<
    SaleRow,
    'lead_id' | 'publisher_id' | 'buyer_id' | 'price_cents' | 'payout_cents' | 'currency'
  > & { environment: Environment }
): Sale {
  return {
    leadId: row.lead_id,
    publisherId: row.publisher_id,
    buyerId: row.buyer_id,
    priceCents: row.price_cents,
    payoutCents: row.payout_cents,
    currency: row.currency.trim(),
    environment: row.environment,
  }
}

/** An open dispute holds its sale's money where it is: the window closing does not make it final. */
export const NO_OPEN_DISPUTE = `NOT EXISTS (SELECT 1 FROM public.disputes d
  WHERE d.lead_id = s.lead_id AND d.buyer_id = s.buyer_id AND d.status IN ('open', 'responded'))`

/**
 * Every sale of some leads, locked in the order routing takes them in: the caller holds the leads
 * and their chain heads, this locks their facts, then their sales. Whoever comes second on a lead
 * (routing selling it again, the window closing, a dispute, a payment) sees what the first did.
 * A lead's sales come back in the order they were made.
 */
export async function lockSalesOf(trx: TransactionClientContract, leadIds: string[]) {
  await trx.rawQuery(
    `SELECT 1 FROM public.lead_facts WHERE lead_id = ANY(?::uuid[]) ORDER BY lead_id FOR UPDATE`,
    [leadIds]
  )
  const result = await trx.rawQuery(
    `SELECT ${SALE_COLUMNS}, NOT ${NO_OPEN_DISPUTE} AS disputed
       FROM public.sales s WHERE s.lead_id = ANY(?::uuid[])
      ORDER BY s.lead_id, s.sold_at, s.id FOR UPDATE OF s`,
    [leadIds]
  )
  const byLead = new Map<string, LockedSaleRow[]>()
  for (const row of result.rows as LockedSaleRow[]) {
    byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), row])
  }
  return byLead
}

/**
 * What a lead's facts say across its sales, for reports and lists: returned only when every sale
 * is; else the least settled of the sales it keeps (pending before payable before paid out). Its
 * price and payout are those of the sales it keeps, so revenue counts a returned sale's money no
 * more; a lead returned altogether keeps what it was sold for (reports count it as a return).
 */
export function leadSummaryOf(
  sales: Pick<SaleRow, 'settlement' | 'price_cents' | 'payout_cents'>[]
) {
  const kept = sales.filter((sale) => sale.settlement !== 'returned')
  const counted = kept.length > 0 ? kept : sales
  const settlement: Settlement =
    kept.length === 0
      ? 'returned'
      : (['pending', 'payable', 'paid_out'] as const).find((state) =>
          kept.some((sale) => sale.settlement === state)
        )!
  return {
    settlement,
    price_cents: counted.reduce((sum, sale) => sum + Number(sale.price_cents), 0),
    payout_cents: counted.reduce((sum, sale) => sum + Number(sale.payout_cents), 0),
  }
}

export type LeadSummary = ReturnType<typeof leadSummaryOf>

/**
 * The status a lead takes from its sales, when it changes: `returned` once every sale is, and
 * `paid_out` once every sale it keeps is paid; otherwise it stays as it is (matched).
 */
export function leadStatusOf(summary: LeadSummary, current: string) {
  const next =
    summary.settlement === 'returned' || summary.settlement === 'paid_out'
      ? summary.settlement
      : null
  return next !== null && next !== current ? next : null
}

/** The trail's name for a lead taking a status from its sales. */
export const STATUS_EVENT = { returned: 'lead.returned', paid_out: 'lead.paid_out' } as const

const SUMMARY_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['settlement', 'text'],
  ['price_cents', 'int'],
  ['payout_cents', 'int'],
  ['payout_id', 'uuid'],
  ['at', 'timestamptz'],
]

/**
 * The facts of some leads rewritten from their sales' summaries: settlement, the kept money,
 * and the status once the lead is returned or paid out; `payout_id` names the payout that last
 * paid one of its sales.
 */
export function leadFactsUpdate(
  summaries: { leadId: string; summary: LeadSummary; payoutId?: string | null }[],
  now: Date
): Part {
  const values = rowsOf(
    SUMMARY_COLUMNS,
    summaries.map(({ leadId, summary, payoutId }) => ({
      lead_id: leadId,
      settlement: summary.settlement,
      price_cents: summary.price_cents,
      payout_cents: summary.payout_cents,
      payout_id: payoutId ?? null,
      at: now,
    }))
  )
  return rawPart(
    `UPDATE public.lead_facts f SET settlement = v.settlement, price_cents = v.price_cents,
       payout_cents = v.payout_cents, payout_id = coalesce(v.payout_id, f.payout_id),
       status = CASE WHEN v.settlement IN ('returned', 'paid_out') THEN v.settlement ELSE f.status END,
       updated_at = v.at
     FROM ${values.from} WHERE f.lead_id = v.lead_id`,
    values.bindings
  )
}

/** The leads in the publisher's schema that took a status from their sales (`leadStatusOf`). */
export function leadStatusUpdate(changes: { leadId: string; status: string }[], now: Date): Part {
  const values = rowsOf(
    [
      ['lead_id', 'uuid'],
      ['status', 'text'],
    ],
    changes.map(({ leadId, status }) => ({ lead_id: leadId, status }))
  )
  return rawPart(
    `UPDATE leads l SET status = v.status, updated_at = ? FROM ${values.from} WHERE l.id = v.lead_id`,
    [now, ...values.bindings]
  )
}
