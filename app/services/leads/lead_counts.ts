import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'

export type LeadCounts = {
  today: number
  accepted_today: number
  rejected_today: number
  flagged_waiting: number
}

/**
 * The figures a portal's home shows at a glance, from lead_facts (never personal data).
 * "Today" is the UTC day until the reports issue brings each label's time zone.
 */
export async function leadCounts(
  scope: { publisherId?: string; buyerId?: string } = {}
): Promise<LeadCounts> {
  const since = DateTime.utc().startOf('day').toJSDate()
  const query = db
    .from('lead_facts')
    .select(
      db.raw('count(*) filter (where created_at >= ?)::int as today', [since]),
      db.raw(
        "count(*) filter (where created_at >= ? and status in ('accepted','matched','paid_out'))::int as accepted_today",
        [since]
      ),
      db.raw(
        "count(*) filter (where created_at >= ? and status = 'rejected')::int as rejected_today",
        [since]
      ),
      db.raw("count(*) filter (where status = 'flagged')::int as flagged_waiting")
    )
  if (scope.publisherId) query.where('publisher_id', scope.publisherId)
  if (scope.buyerId) query.where('buyer_id', scope.buyerId)
  const [row] = await query
  return row as LeadCounts
}
