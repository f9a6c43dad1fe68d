import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'

/** Helpers of the report specs (not a spec itself). */

const REASONS = [
  'invalid_phone',
  'invalid_email',
  'duplicate',
  'missing_consent',
  'outside_target_audience',
]
const STATUSES = ['accepted', 'accepted', 'accepted', 'flagged', 'rejected']
const CHANNELS = ['api', 'form', 'upload', 'request']

/** A seeded generator, so a failing run can be replayed from the seed it printed. */
export function randomFrom(seed: number) {
  let state = seed >>> 0 || 1
  const next = () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4_294_967_296
  }
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
  }
}

export type World = { publishers: { id: string; label_id: string | null }[]; buyers: string[] }

/** One accepted lead's fact, as intake writes it for a lone lead. */
export function acceptedFact(publisher: { id: string; labelId?: string | null }, at: Date) {
  return {
    lead_id: randomUUID(),
    publisher_id: publisher.id,
    label_id: publisher.labelId ?? null,
    channel: 'api',
    environment: 'live',
    status: 'accepted',
    reason_codes: [],
    processing_ms: 12,
    created_at: at,
    updated_at: at,
  }
}

/** `count` facts of the world's publishers, created at random within `[from, to)`. */
export async function insertFacts(
  world: World,
  random: ReturnType<typeof randomFrom>,
  count: number,
  from: Date,
  to: Date
) {
  const rows = Array.from({ length: count }, () => {
    const publisher = random.pick(world.publishers)
    const status = random.pick(STATUSES)
    const at = new Date(from.getTime() + random.int(to.getTime() - from.getTime()))
    return {
      lead_id: randomUUID(),
      publisher_id: publisher.id,
      label_id: publisher.label_id,
      channel: random.pick(CHANNELS),
      environment: random.int(10) === 0 ? 'sandbox' : 'live',
      status,
      reason_codes:
        status === 'accepted'
          ? []
          : [random.pick(REASONS), ...(random.int(3) === 0 ? [random.pick(REASONS)] : [])],
      processing_ms:
        random.int(8) === 0
          ? null
          : // About one in ten slow, so some groups' p90 falls above the histogram's exact range.
            3 + random.int(60) + (random.int(10) === 0 ? 1000 + random.int(4000) : 0),
      created_at: at,
      updated_at: at,
    }
  })
  for (let i = 0; i < rows.length; i += 200) {
    await db.table('lead_facts').multiInsert(rows.slice(i, i + 200))
  }
  return rows.map((row) => row.lead_id)
}

/** Late changes, each one statement over several facts, as routing, review and disputes write them. */
export async function lateChanges(
  world: World,
  random: ReturnType<typeof randomFrom>,
  ids: string[]
) {
  const some = (share: number) => ids.filter(() => random.next() < share)
  // Routing sells accepted leads, some in another currency.
  for (const buyer of world.buyers) {
    await db.rawQuery(
      `UPDATE lead_facts SET status = 'matched', buyer_id = ?, price_cents = 1000 + (random() * 4000)::int,
         payout_cents = 500 + (random() * 400)::int, currency = ?, matched_at = created_at + interval '1 minute',
         settlement = 'pending', updated_at = now()
       WHERE lead_id = ANY(?::uuid[]) AND status = 'accepted'`,
      [buyer, random.int(4) === 0 ? 'USD' : 'EUR', some(0.3)]
    )
  }
  // Reviews: flagged leads approved or rejected (the reviewer's reason appended).
  await db.rawQuery(
    `UPDATE lead_facts SET status = 'accepted', updated_at = now()
      WHERE lead_id = ANY(?::uuid[]) AND status = 'flagged'`,
    [some(0.3)]
  )
  await db.rawQuery(
    `UPDATE lead_facts SET status = 'rejected', reason_codes = array_append(reason_codes, 'review_rejected'),
       updated_at = now() WHERE lead_id = ANY(?::uuid[]) AND status = 'flagged'`,
    [some(0.3)]
  )
  // Returns, acceptances, payouts.
  await db.rawQuery(
    `UPDATE lead_facts SET settlement = 'returned', status = 'returned', updated_at = now()
      WHERE lead_id = ANY(?::uuid[]) AND settlement = 'pending'`,
    [some(0.25)]
  )
  await db.rawQuery(
    `UPDATE lead_facts SET settlement = 'payable', updated_at = now()
      WHERE lead_id = ANY(?::uuid[]) AND settlement = 'pending'`,
    [some(0.3)]
  )
  // A change no figure reads, and facts that go away.
  await db.rawQuery(`UPDATE lead_facts SET routed_at = now() WHERE lead_id = ANY(?::uuid[])`, [
    some(0.2),
  ])
  await db.rawQuery(`DELETE FROM lead_facts WHERE lead_id = ANY(?::uuid[])`, [some(0.03)])
}

const KEYS: Record<string, string> = {
  publisher: 'publisher_id::text',
  label: 'label_id::text',
  buyer: 'buyer_id::text',
  channel: 'channel',
  none: 'NULL::text',
}

/**
 * The figures straight from `lead_facts`, written independently of the rollups (FILTER clauses,
 * percentile_disc), per group: what every report figure must equal.
 */
export async function expectedFigures(
  groupBy: string,
  publisherIds: string[],
  from: Date,
  to: Date,
  environment = 'live'
) {
  const where = `publisher_id = ANY(?::uuid[]) AND environment = ? AND created_at >= ? AND created_at < ?`
  const bindings = [publisherIds, environment, from, to]
  const key = KEYS[groupBy]
  const main = await db.rawQuery(
    `SELECT ${key} AS key, count(*)::int AS volume,
            count(*) FILTER (WHERE status IN ('accepted', 'matched', 'returned', 'paid_out'))::int AS accepted,
            count(*) FILTER (WHERE status = 'flagged')::int AS flagged,
            count(*) FILTER (WHERE status = 'rejected')::int AS rejected,
            count(matched_at)::int AS matched,
            count(matched_at) FILTER (WHERE settlement IS DISTINCT FROM 'returned')::int AS kept,
            count(*) FILTER (WHERE settlement = 'returned')::int AS returns,
            round(avg(processing_ms), 2)::float AS avg_processing_ms,
            percentile_disc(0.9) WITHIN GROUP (ORDER BY processing_ms) AS p90_processing_ms
       FROM lead_facts WHERE ${where} GROUP BY 1 ORDER BY 1`,
    bindings
  )
  const money = await db.rawQuery(
    `SELECT ${key} AS key, currency, sum(price_cents)::int AS revenue_cents, sum(payout_cents)::int AS payout_cents
       FROM lead_facts WHERE ${where} AND matched_at IS NOT NULL AND settlement IS DISTINCT FROM 'returned'
      GROUP BY 1, 2 ORDER BY 1, 2`,
    bindings
  )
  const reasons = await db.rawQuery(
    `SELECT ${key} AS key, code, count(*)::int AS count
       FROM lead_facts, unnest(reason_codes) code
      WHERE ${where} AND status IN ('flagged', 'rejected') GROUP BY 1, 2`,
    bindings
  )
  const byKey = new Map<string | null, Record<string, any>>()
  for (const row of main.rows) {
    byKey.set(row.key, { ...row, by_currency: [], top_reasons: [] })
  }
  for (const row of money.rows) {
    byKey.get(row.key)!.by_currency.push({
      currency: row.currency,
      revenue_cents: row.revenue_cents,
      payout_cents: row.payout_cents,
      margin_cents: row.revenue_cents - row.payout_cents,
    })
  }
  for (const row of reasons.rows)
    byKey.get(row.key)!.top_reasons.push({ code: row.code, count: row.count })
  for (const figures of byKey.values()) {
    figures.top_reasons = figures.top_reasons
      .sort((a: any, b: any) => b.count - a.count || a.code.localeCompare(b.code))
      .slice(0, 5)
  }
  return byKey
}

/** Where the p90 stops being exact, and its relative error above (docs/reports.md). */
export const EXACT_P90_BELOW_MS = 1024
export const P90_RELATIVE_ERROR = 0.01

/**
 * A report row's figures against the direct query's: every figure equal, the p90 too when the
 * direct one is below 1024 ms, within 1 % of it above. Answers whether the p90 was approximate.
 */
export function assertFigures(
  assert: { deepEqual: Function; isAtMost: Function; equal: Function },
  reported: Record<string, any>,
  expected: Record<string, any> | undefined,
  message: string
) {
  const { p90_processing_ms: p90, ...rest } = reported
  const { p90_processing_ms: directP90, ...directRest } = expected ?? {}
  assert.deepEqual(rest, expected ? directRest : undefined, message)
  if (directP90 === null || directP90 < EXACT_P90_BELOW_MS) {
    assert.equal(p90, directP90, `${message}: p90 (exact)`)
    return false
  }
  assert.isAtMost(Math.abs(p90 - directP90) / directP90, P90_RELATIVE_ERROR, `${message}: p90`)
  return true
}

/** The report's figures in the shape `expectedFigures` answers. */
export function reportedFigures(row: Record<string, any>) {
  return {
    key: row.key,
    volume: row.volume,
    accepted: row.accepted,
    flagged: row.flagged,
    rejected: row.rejected,
    matched: row.drop_off.matched,
    kept: row.drop_off.kept,
    returns: row.returns,
    avg_processing_ms: row.avg_processing_ms,
    p90_processing_ms: row.p90_processing_ms,
    by_currency: row.by_currency,
    top_reasons: row.top_reasons,
  }
}
