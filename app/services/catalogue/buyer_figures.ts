import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'

export type BuyerFigures = { leads_today: number; routing_rules: number }

/**
 * What the operator's buyer list shows beside each buyer: the live leads it
 * bought today (its sales since midnight UTC, as the overview counts its day,
 * so a shared lead counts for each of its buyers; the sandbox's sales are
 * tests) and how many routing rules it has, live and sandbox (the list they
 * link to shows both). One query for a whole page of buyers.
 */
export async function buyerFigures(buyerIds: string[]): Promise<Map<string, BuyerFigures>> {
  if (buyerIds.length === 0) return new Map()
  const since = DateTime.utc().startOf('day').toJSDate()
  const result = await db.rawQuery(
    `SELECT b.id,
       (SELECT count(*) FROM public.sales s
        WHERE s.buyer_id = b.id AND s.sold_at >= ? AND s.environment = 'live')::int AS leads_today,
       (SELECT count(*) FROM public.routing_rules r WHERE r.buyer_id = b.id)::int AS routing_rules
     FROM unnest(?::uuid[]) AS b(id)`,
    [since, buyerIds]
  )
  return new Map(
    result.rows.map((row: { id: string } & BuyerFigures) => [
      row.id,
      { leads_today: row.leads_today, routing_rules: row.routing_rules },
    ])
  )
}
