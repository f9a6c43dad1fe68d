import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { DISPUTE_REASONS, type DisputeStatus, OPEN_STATUSES } from '#services/money/dispute_rules'

const NOBODY = '00000000-0000-0000-0000-000000000000'

/** Sales read per query while streaming a publisher's sales. */
const PAGE = 5000

const iso = (moment: Date | string | null) => (moment ? new Date(moment).toISOString() : null)

/**
 * A lead's return window as a buyer it was sold to sees it on the lead's page: its own sale's
 * (a shared lead's buyers each have theirs), whether it may return the lead now (the test
 * DisputeService.open applies: the sale pending, its window not closed, no dispute of its own
 * open) and its newest dispute, if any. A lead it did not buy answers 404.
 */
export async function returnWindowOf(principal: Principal, leadId: string, now = new Date()) {
  const buyerId = principal.kind === 'buyer' ? (principal.buyerId ?? NOBODY) : NOBODY
  const [sale, dispute] = await Promise.all([
    db
      .from('sales')
      .where('lead_id', leadId)
      .where('buyer_id', buyerId)
      .where('environment', principal.environment)
      .select('settlement', 'settles_at')
      .first(),
    db
      .from('disputes')
      .where('lead_id', leadId)
      .where('buyer_id', buyerId)
      .where('environment', principal.environment)
      .orderBy('id', 'desc')
      .select('id', 'status')
      .first(),
  ])
  if (!sale) throw ApiProblem.notFound('lead')
  const disputeOpen = dispute ? OPEN_STATUSES.includes(dispute.status as DisputeStatus) : false
  return {
    settlement: sale.settlement as string,
    closes_at: iso(sale.settles_at),
    open: sale.settlement === 'pending' && new Date(sale.settles_at) > now && !disputeOpen,
    dispute: dispute ? { id: dispute.id as string, status: dispute.status as DisputeStatus } : null,
    reasons: DISPUTE_REASONS,
  }
}

/** How many disputes wait for this publisher's answer in one environment: open, and its deadline still ahead. */
export async function disputesAwaitingAnswer(
  publisherId: string,
  now = new Date(),
  environment: Environment = 'live'
) {
  const row = await db
    .from('disputes')
    .where('publisher_id', publisherId)
    .where('environment', environment)
    .where('status', 'open')
    .where('respond_by', '>', now)
    .count('* as waiting')
    .first()
  return Number(row?.waiting ?? 0)
}

/**
 * A publisher's sales as CSV, oldest first, streamed a page at a time: each sale (a shared lead
 * has a row per sale), when, its payout (what the publisher earns, never the price or the
 * buyer), where its money stands, and the payout that paid it. A cell a spreadsheet would run
 * as a formula is escaped.
 */
export function publisherSalesCsv(publisherId: string): Readable {
  async function* records() {
    yield ['lead_id', 'sold_at', 'payout_cents', 'currency', 'settlement', 'payout_id']
    let after: { sold_at: Date; id: string } | null = null
    for (;;) {
      const query = db
        .from('sales')
        .where('publisher_id', publisherId)
        .where('environment', 'live')
        .orderBy([
          { column: 'sold_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(PAGE)
        .select('id', 'lead_id', 'sold_at', 'payout_cents', 'currency', 'settlement', 'payout_id')
      if (after) query.whereRaw('(sold_at, id) > (?, ?)', [after.sold_at, after.id])
      const rows = await query
      for (const row of rows) {
        yield [
          row.lead_id,
          iso(row.sold_at),
          Number(row.payout_cents),
          String(row.currency).trim(),
          row.settlement,
          row.payout_id ?? '',
        ]
      }
      if (rows.length < PAGE) return
      after = rows[rows.length - 1]
    }
  }
  return Readable.from(records()).pipe(stringify({ escape_formulas: true }))
}
