import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { uuidv7 } from 'uuidv7'
import ApiProblem from '#exceptions/api_problem'
import type { Environment } from '#auth/principal'
import { type PingFields, pingDigest } from '#services/selling/ping_fields'
import { openPingId } from '#services/selling/ping_token'
import { insertRows, insertTogether } from '#services/sql/insert_together'

type PingRow = {
  id: string
  publisher_id: string
  environment: Environment
  fields_digest: string
  bids: {
    routing_rule_id: string
    buyer_id: string
    destination_id: string | null
    outcome: string
    reason: string | null
    bid_cents: number | null
    bid_id: string | null
    expires_at: string | null
    duration_ms: number
  }[]
  payout_cents: number | null
  expires_at: Date
  used_at: Date | null
}

const mismatch = () =>
  ApiProblem.conflict(
    'ping_mismatch',
    'This lead does not match the ping its ping_id names: post the fields the ping carried, or ping again.'
  )

/**
 * Checks a lead's `ping_id` before anything is stored or any buyer sees the lead: a ping of this
 * publisher and environment, its fields those of the lead, unused and unexpired. A ping that is
 * not Leadgate's, or another publisher's, answers as fields that differ: a caller cannot tell
 * which pings exist.
 */
export async function checkPing(
  pingId: string,
  publisher: { id: string; country: string },
  environment: Environment,
  fields: PingFields,
  now = new Date()
) {
  const opened = openPingId(pingId)
  if (!opened) throw mismatch()
  const ping: PingRow | null = await db.from('pings').where('id', opened.id).first()
  if (!ping || ping.publisher_id !== publisher.id || ping.environment !== environment) {
    throw mismatch()
  }
  if (ping.fields_digest !== pingDigest(publisher.id, environment, fields, publisher.country)) {
    throw mismatch()
  }
  if (ping.used_at) throw usedPing()
  if (new Date(ping.expires_at) <= now) {
    throw new ApiProblem(
      410,
      'ping_expired',
      'Gone',
      `This ping's offer expired at ${new Date(ping.expires_at).toISOString()}: ping again.`
    )
  }
  return ping
}

function usedPing() {
  return ApiProblem.conflict('ping_used', 'A lead was posted on this ping already: ping again.')
}

/**
 * In the lead's intake transaction: the ping becomes this lead's (once: a concurrent post of
 * the same ping waits and then finds it used), its bids become the lead's auction (no buyer is
 * pinged again), and the lead's facts carry the offered payout, which it earns whichever buyer
 * takes it.
 */
export async function claimPing(
  trx: TransactionClientContract,
  ping: PingRow,
  leadId: string,
  now: Date
) {
  const claimed = await trx.rawQuery(
    `UPDATE public.pings SET used_at = ?, lead_id = ? WHERE id = ? AND used_at IS NULL RETURNING id`,
    [now, leadId, ping.id]
  )
  if (claimed.rows.length === 0) throw usedPing()
  if (ping.bids.length > 0) {
    await insertTogether(trx, [
      insertRows(
        'sale_attempts',
        [
          ['id', 'uuid'],
          ['lead_id', 'uuid'],
          ['routing_rule_id', 'uuid'],
          ['buyer_id', 'uuid'],
          ['destination_id', 'uuid'],
          ['destination_kind', 'text'],
          ['kind', 'text'],
          ['outcome', 'text'],
          ['reason', 'text'],
          ['bid_cents', 'int'],
          ['bid_id', 'text'],
          ['bid_expires_at', 'timestamptz'],
          ['auction_id', 'uuid'],
          ['started_at', 'timestamptz'],
          ['duration_ms', 'int'],
        ],
        ping.bids.map((bid) => ({
          id: uuidv7(),
          lead_id: leadId,
          routing_rule_id: bid.routing_rule_id,
          buyer_id: bid.buyer_id,
          destination_id: bid.destination_id,
          destination_kind: 'http',
          kind: 'ping',
          outcome: bid.outcome,
          reason: bid.reason,
          bid_cents: bid.bid_cents,
          bid_id: bid.bid_id,
          bid_expires_at: bid.expires_at ?? ping.expires_at,
          auction_id: ping.id,
          started_at: now,
          duration_ms: bid.duration_ms,
        }))
      ),
    ])
  }
  await trx.rawQuery(
    `UPDATE public.lead_facts SET offered_payout_cents = ?::int, sale_started_at = ?,
        sale_attempts = sale_attempts + ? WHERE lead_id = ?`,
    [ping.payout_cents as number, now, ping.bids.length, leadId]
  )
}
