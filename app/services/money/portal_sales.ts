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
 * A lead's return window as the buyer it was sold to sees it on the lead's page: whether it may
 * return the lead now (the test DisputeService.open applies: the sale pending, its window not
 * closed, no dispute open) and its newest dispute, if any. Another buyer's lead answers 404.
 */
export async function returnWindowOf(principal: Principal, leadId: string, now = new Date()) {
  const buyerId = principal.kind === 'buyer' ? (principal.buyerId ?? NOBODY) : NOBODY
  const [fact, dispute] = await Promise.all([
    db
      .from('lead_facts')
      .where('lead_id', leadId)
      .where('buyer_id', buyerId)
      .where('environment', principal.environment)
      .whereNotNull('settlement')
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
  if (!fact) throw ApiProblem.notFound('lead')
  const disputeOpen = dispute ? OPEN_STATUSES.includes(dispute.status as DisputeStatus) : false
  return {
    settlement: fact.settlement as string,
    closes_at: iso(fact.settles_at),
    open: fact.settlement === 'pending' && new Date(fact.settles_at) > now && !disputeOpen,
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
 * A publisher's sales as CSV, oldest first, streamed a page at a time: each lead sold, when, its
 * payout (what the publisher earns, never the price), where its money stands, and the payout
 * that paid it. A cell a spreadsheet would run as a formula is escaped.
 */
export function publisherSalesCsv(publisherId: string): Readable {
  async function* records() {
    yield ['lead_id', 'sold_at', 'payout_cents', 'currency', 'settlement', 'payout_id']
    let after: { created_at: Date; lead_id: string } | null = null
    for (;;) {
      const query = db
        .from('lead_facts')
        .where('publisher_id', publisherId)
        .where('environment', 'live')
        .whereNotNull('settlement')
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'lead_id', order: 'asc' },
        ])
        .limit(PAGE)
        .select(
          'lead_id',
          'created_at',
          'matched_at',
          'payout_cents',
          'currency',
          'settlement',
          'payout_id'
        )
      if (after) {
        query.whereRaw('(created_at, lead_id) > (?, ?)', [after.created_at, after.lead_id])
      }
      const rows = await query
      for (const row of rows) {
        yield [
          row.lead_id,
          iso(row.matched_at),
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
