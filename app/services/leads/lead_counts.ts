import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'

export type LeadCounts = {
  today: number
  accepted_today: number
  rejected_today: number
  flagged_waiting: number
}

/** The figures, as columns of a lead_facts query; "today" starts at `since`. */
function countColumns(since: Date) {
  return [
    db.raw('count(*) filter (where created_at >= ?)::int as today', [since]),
    db.raw(
      "count(*) filter (where created_at >= ? and status in ('accepted','matched','paid_out'))::int as accepted_today",
      [since]
    ),
    db.raw(
      "count(*) filter (where created_at >= ? and status = 'rejected')::int as rejected_today",
      [since]
    ),
    db.raw("count(*) filter (where status = 'flagged')::int as flagged_waiting"),
  ]
}

/**
 * The figures a portal's home shows at a glance, from lead_facts (never personal data): live
 * leads, as the review queue shows them; sandbox tests are no deliveries. "Today" is the UTC
 * day until the reports issue brings each label's time zone.
 */
export async function leadCounts(
  scope: { publisherId?: string; buyerId?: string; environment?: 'live' | 'sandbox' } = {}
): Promise<LeadCounts> {
  const since = DateTime.utc().startOf('day').toJSDate()
  const query = db.from('lead_facts').select(...countColumns(since))
  if (scope.publisherId) query.where('publisher_id', scope.publisherId)
  if (scope.buyerId) query.where('buyer_id', scope.buyerId)
  query.where('environment', scope.environment ?? 'live')
  const [row] = await query
  return row as LeadCounts
}

/**
 * The same live figures for each of the given publishers, in one query (a
 * list page's rows side by side); a publisher without leads gets zeros.
 */
export async function countsByPublisher(publisherIds: string[]) {
  const counts = new Map<string, LeadCounts>(
    publisherIds.map((id) => [
      id,
      { today: 0, accepted_today: 0, rejected_today: 0, flagged_waiting: 0 },
    ])
  )
  if (publisherIds.length === 0) return counts
  const since = DateTime.utc().startOf('day').toJSDate()
  const rows = await db
    .from('lead_facts')
    .select('publisher_id', ...countColumns(since))
    .whereIn('publisher_id', publisherIds)
    .where('environment', 'live')
    .groupBy('publisher_id')
  for (const { publisher_id: id, ...row } of rows) counts.set(id, row as LeadCounts)
  return counts
}

/**
 * Accepted as a share of the leads decided today (accepted or rejected; a
 * flagged lead still waits for its decision), or null before the first.
 */
export function acceptanceRate(counts: LeadCounts) {
  const decided = counts.accepted_today + counts.rejected_today
  return decided === 0 ? null : counts.accepted_today / decided
}
