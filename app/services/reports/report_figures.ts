import db from '@adonisjs/lucid/services/db'
import { transaction } from '#services/sql/transaction'
import type { ReportDimension } from '#services/reports/types'
import { type Segment, segmentsOf } from '#services/reports/report_period'

/**
 * Reading the rollups (database/migrations/1763780000400_create_report_rollups.ts): whole UTC
 * months, days and hours from one of the two cubes, the raw edges from `report_fact_measures`
 * (the same figures computed over `lead_facts`), summed per bucket.
 */
export const MEASURES = [
  'volume',
  'accepted',
  'flagged',
  'rejected',
  'matched',
  'kept',
  'returns',
  'revenue_cents',
  'payout_cents',
  'processing_count',
  'processing_ms_sum',
] as const
export type Measure = (typeof MEASURES)[number]
export type Sums = Record<Measure, number>

/** A condition on the dimension columns every rollup table and the view share. */
export type Condition = { sql: string; bindings: unknown[] }

/** The group's column in its own type: uuids group and sort far faster than their text. */
const KEY_COLUMNS: Record<ReportDimension, string> = {
  publisher: 'r.publisher_id',
  label: 'r.label_id',
  buyer: 'r.buyer_id',
  channel: 'r.channel',
}

export type Grouping = ReportDimension | null

/** A stretch of time whose figures are summed into one bucket. */
export type Period = { bucket: number; from: Date; to: Date }

/**
 * The narrow cube (publisher, label, environment; by hour and week too) unless the report
 * filters or groups by buyer or channel, which only the wide one (days and months) keys.
 */
function cubeOf(groupBy: Grouping, conditions: Condition[]) {
  const wide =
    groupBy === 'buyer' ||
    groupBy === 'channel' ||
    conditions.some((c) => /\br\.(buyer_id|channel)\b/.test(c.sql))
  return wide
    ? { prefix: 'report_rollup', narrow: false }
    : { prefix: 'report_publisher_rollup', narrow: true }
}

function keyOf(groupBy: Grouping) {
  return groupBy ? KEY_COLUMNS[groupBy] : 'NULL::uuid'
}

/**
 * One report statement, without JIT and with room to sort in memory. Its cost estimates (a range
 * of an index per segment) pass `jit_above_cost`, and compiling took 30–56 ms of statements
 * that run in 10–70 ms (bench:reports, auto_explain); the sums' sort spilled 5 MB to disk at the
 * default 4 MB. The settings (`SET LOCAL`) must precede the statement's planning, hence the
 * transaction.
 */
async function reportRows(sql: string, bindings: any[]) {
  return transaction(async (trx) => {
    await trx.rawQuery(
      `SELECT set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`
    )
    const result = await trx.rawQuery(sql, bindings)
    return result.rows as Record<string, any>[]
  })
}

/** The segments as a relation `s`, passed as five arrays so the statement stays one size. */
function segmentsCte(segments: Segment[]) {
  return {
    sql: `WITH s AS (SELECT * FROM unnest(?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[],
                       ?::int[]) AS s(bucket, grain, from_at, to_at, sign))`,
    bindings: [
      segments.map((s) => s.bucket),
      segments.map((s) => s.grain),
      segments.map((s) => s.from.toISOString()),
      segments.map((s) => s.to.toISOString()),
      segments.map((s) => s.sign),
    ],
  }
}

function where(conditions: Condition[]) {
  return {
    sql: conditions.map((c) => ` AND ${c.sql}`).join(''),
    bindings: conditions.flatMap((c) => c.bindings),
  }
}

/**
 * `rolled(sign)` reads a rollup table joined to its segments, each row counted `sign` times (the
 * segment's); `raw(sign)` selects from facts `r`, each counted `sign` times: the view over
 * `lead_facts` for the raw edges, and the log of changes not folded into the rollups yet
 * (`report_fact_deltas`, signed) for every other segment. `outer` combines the two (rolled
 * first: the bindings follow the text).
 */
async function union(
  periods: Period[],
  groupBy: Grouping,
  conditions: Condition[],
  parts: {
    rolled: (sign: string) => string
    rollupTable: 's' | '_reasons' | '_latency'
    raw: (sign: string) => string
    rawJoin?: string
    rawFilter?: string
    outer: (rolled: string, raw: string) => string
  }
) {
  const cube = cubeOf(groupBy, conditions)
  // The narrow cube keeps hours and weeks in every table, the wide cube neither (migration
  // 1763780000700).
  const segments = periods.flatMap((p) =>
    segmentsOf(p.from, p.to, p.bucket, { hours: cube.narrow, weeks: cube.narrow })
  )
  if (segments.length === 0) return []
  const cte = segmentsCte(segments)
  const filter = where(conditions)
  // Each segment reads its own range of the index (OFFSET 0 keeps the planner from flattening
  // the lateral reads into one hash join over the whole table).
  const rolled = `SELECT ${parts.rolled('s.sign')} FROM s CROSS JOIN LATERAL (
      SELECT * FROM ${cube.prefix}${parts.rollupTable} r
       WHERE r.grain = s.grain AND r.at >= s.from_at AND r.at < s.to_at${filter.sql} OFFSET 0) r
    WHERE s.grain <> 'raw'`
  const raw = `SELECT ${parts.raw('s.sign')} FROM s CROSS JOIN LATERAL (
      SELECT * FROM report_fact_measures r
       WHERE r.created_at >= s.from_at AND r.created_at < s.to_at${filter.sql} OFFSET 0) r${parts.rawJoin ?? ''}
    WHERE s.grain = 'raw'${parts.rawFilter ?? ''}
    UNION ALL
    SELECT ${parts.raw('r.sign * s.sign')} FROM s JOIN report_fact_deltas r
        ON r.created_at >= s.from_at AND r.created_at < s.to_at${parts.rawJoin ?? ''}
     WHERE s.grain <> 'raw'${filter.sql}${parts.rawFilter ?? ''}`
  const sql = `${cte.sql}\n${parts.outer(rolled, raw)}`
  const bindings = [...cte.bindings, ...filter.bindings, ...filter.bindings, ...filter.bindings]
  return reportRows(sql, bindings)
}

export type SumsRow = { bucket: number; key: string | null; currency: string | null } & Sums

/** The sums per bucket, group and currency. */
export async function readSums(periods: Period[], groupBy: Grouping, conditions: Condition[]) {
  const columns = (sign: string) =>
    `s.bucket, ${keyOf(groupBy)} AS key, r.currency, ${MEASURES.map((m) => `${sign} * r.${m} AS ${m}`).join(', ')}`
  const rows = await union(periods, groupBy, conditions, {
    rolled: columns,
    rollupTable: 's',
    raw: columns,
    outer: (rolled, raw) =>
      `SELECT bucket, u.key::text AS key, currency, ${MEASURES.map((m) => `sum(${m})::bigint AS ${m}`).join(', ')}
         FROM (${rolled} UNION ALL ${raw}) u GROUP BY bucket, u.key, currency`,
  })
  return rows.map((row) => {
    const sums = Object.fromEntries(MEASURES.map((m) => [m, Number(row[m])])) as Sums
    return { bucket: row.bucket, key: row.key, currency: row.currency, ...sums } as SumsRow
  })
}

/**
 * The packed counts (migration 1763780000700: a row's codes or buckets in one array, their
 * counts in another) of every block, raw edge and unfolded change, one row per bucket, group
 * and block: a 90-day report by publisher reads ~5,000 rows holding ~280,000 counts, which
 * Postgres grouped far more slowly than the readers below add them up.
 */
async function readPacked(
  periods: Period[],
  groupBy: Grouping,
  conditions: Condition[],
  table: { rollupTable: '_reasons' | '_latency'; raw: string },
  extra: { rawJoin?: string; rawFilter?: string } = {}
) {
  const keyColumn = `${keyOf(groupBy)} AS key`
  // As JSON (`[keys, counts]`), which the driver hands to JSON.parse: its array parser made a
  // string per element. The rollups store it (`packed`, migration 1763780000900), so Postgres
  // sends it without formatting 280,000 counts again on every read.
  const rows = await union(periods, groupBy, conditions, {
    rolled: (sign) => `s.bucket, ${keyColumn}, r.packed, ${sign} AS sign`,
    rollupTable: table.rollupTable,
    raw: (sign) => `s.bucket, ${keyColumn}, ${table.raw} AS k, ${sign} AS n`,
    rawJoin: extra.rawJoin,
    rawFilter: extra.rawFilter,
    outer: (rolled, raw) =>
      `SELECT bucket, key::text AS key, packed, sign FROM (${rolled}) p
       UNION ALL
       SELECT bucket, key::text, report_packed_json(array_agg(k), array_agg(n)), 1
         FROM (SELECT bucket, key, k, sum(n)::int AS n FROM (${raw}) w GROUP BY 1, 2, 3) g
        GROUP BY 1, 2`,
  })
  return rows as {
    bucket: number
    key: string | null
    packed: [keys: any[], counts: number[]]
    sign: 1 | -1
  }[]
}

/**
 * Packed rows added up per bucket and group into what `empty` makes, by `add` (each count times
 * the row's sign); with `totals`, per bucket over all groups too (`total`, key null). Indexed
 * loops and no copies: a 90-day report by publisher adds ~280,000 counts, and iterators or a
 * negated copy per row made garbage that took a sixth of the server's CPU (bench:reports
 * profile).
 */
function mergePacked<Into>(
  rows: Awaited<ReturnType<typeof readPacked>>,
  totals: boolean,
  empty: () => Into,
  add: (into: Into, keys: any[], counts: number[], sign: 1 | -1) => void
) {
  type Merged = { bucket: number; key: string | null; total: boolean; into: Into }
  const merged = new Map<string, Merged>()
  const target = (bucket: number, key: string | null, total: boolean) => {
    const id = total ? `${bucket}` : `${bucket}:${key}`
    let entry = merged.get(id)
    if (!entry) {
      entry = { bucket, key: total ? null : key, total, into: empty() }
      merged.set(id, entry)
    }
    return entry.into
  }
  for (const { bucket, key, packed, sign } of rows) {
    add(target(bucket, key, false), packed[0], packed[1], sign)
    if (totals) add(target(bucket, null, true), packed[0], packed[1], sign)
  }
  return [...merged.values()]
}

/** The reason codes of flagged and rejected leads, counted per bucket and group. */
export async function readReasons(periods: Period[], groupBy: Grouping, conditions: Condition[]) {
  const rows = await readPacked(
    periods,
    groupBy,
    conditions,
    { rollupTable: '_reasons', raw: 'code' },
    { rawJoin: ' CROSS JOIN LATERAL unnest(r.reason_codes) AS code', rawFilter: ' AND r.reasoned' }
  )
  const merged = mergePacked(
    rows,
    false,
    () => new Map<string, number>(),
    (into, codes: string[], counts: number[], sign) => {
      for (let i = 0; i < codes.length; i++)
        into.set(codes[i], (into.get(codes[i]) ?? 0) + sign * counts[i])
    }
  )
  return merged.flatMap(({ bucket, key, into }) =>
    [...into]
      .filter(([, count]) => count > 0)
      .map(([code, count]) => ({ bucket, key, code, count }))
  )
}

/** Below it a histogram's bucket is the millisecond itself (`report_latency_bucket`). */
const EXACT_BELOW_MS = 1024
/** A group's histogram: counts below 1024 ms by the millisecond, the rare slow buckets apart. */
type Histogram = { exact: Float64Array; slow: Map<number, number> }

/** Adds a packed histogram row (its buckets and their counts, times its sign) to `into`. */
function addCounts(into: Histogram, ms: number[], n: number[], sign: 1 | -1) {
  // eslint-disable-next-line @unicorn/no-for-loop -- entries() made a pair per count (see mergePacked)
  for (let i = 0; i < ms.length; i++) {
    if (ms[i] < EXACT_BELOW_MS) into.exact[ms[i]] += sign * n[i]
    else into.slow.set(ms[i], (into.slow.get(ms[i]) ?? 0) + sign * n[i])
  }
}

/** The smallest bucket whose cumulative count reaches 90 % of the histogram's, if it counts any. */
function p90Of({ exact, slow }: Histogram) {
  const slowBuckets = [...slow].filter(([, n]) => n > 0).sort(([a], [b]) => a - b)
  let all = 0
  for (let ms = 0; ms < EXACT_BELOW_MS; ms++) if (exact[ms] > 0) all += exact[ms]
  for (const [, n] of slowBuckets) all += n
  let cumulative = 0
  for (let ms = 0; ms < EXACT_BELOW_MS; ms++) {
    if (exact[ms] <= 0) continue
    cumulative += exact[ms]
    if (cumulative * 10 >= all * 9) return ms
  }
  for (const [ms, n] of slowBuckets) {
    cumulative += n
    if (cumulative * 10 >= all * 9) return ms
  }
  return null
}

/**
 * The 90th percentile of processing time per bucket and group over the histogram's buckets
 * (`report_latency_bucket`): the smallest bucket whose cumulative count reaches 90 % — exactly
 * `percentile_disc(0.9)` over the facts when that is below 1024 ms, within 1 % above. With
 * `totals`, the same rows also answer each bucket over all groups (`total`), as the p90 does
 * not add up over groups. A group's counts below 1024 ms are added in an array indexed by the
 * millisecond (a Map per group took 4–6 times as long).
 */
export async function readP90(
  periods: Period[],
  groupBy: Grouping,
  conditions: Condition[],
  totals = false
) {
  const rows = await readPacked(
    periods,
    groupBy,
    conditions,
    { rollupTable: '_latency', raw: 'r.bucket_ms' },
    { rawFilter: ' AND r.bucket_ms IS NOT NULL' }
  )
  const merged = mergePacked(
    rows,
    totals,
    (): Histogram => ({ exact: new Float64Array(EXACT_BELOW_MS), slow: new Map() }),
    addCounts
  )
  return merged.flatMap(({ bucket, key, total, into }) => {
    const p90 = p90Of(into)
    return p90 === null ? [] : [{ bucket, key, total, p90 }]
  })
}

/**
 * Form views, starts and submissions per bucket and group. The forms domain counts them per
 * UTC day (`forms/form_counters.ts`), so a bucket counts every UTC day it touches. They are
 * live and of channel `form`, without a buyer: other filters match them as they would a lead.
 */
export async function readFunnel(periods: Period[], groupBy: Grouping, conditions: Condition[]) {
  const cte = segmentsCte(periods.map((p) => ({ ...p, grain: 'raw' as const, sign: 1 as const })))
  const filter = where(conditions)
  const result = await db.rawQuery(
    `${cte.sql}
     SELECT s.bucket, ${keyOf(groupBy)}::text AS key, sum(r.views)::bigint AS views,
            sum(r.starts)::bigint AS starts, sum(r.submissions)::bigint AS submissions
       FROM s JOIN (
         SELECT c.day, c.views, c.starts, c.submissions, f.publisher_id, p.label_id,
                NULL::uuid AS buyer_id, 'form'::text AS channel, 'live'::text AS environment
           FROM form_counters c JOIN forms f ON f.id = c.form_id
           JOIN publishers p ON p.id = f.publisher_id
       ) r ON r.day >= (s.from_at AT TIME ZONE 'UTC')::date
          AND r.day <= ((s.to_at - interval '1 microsecond') AT TIME ZONE 'UTC')::date
      WHERE true${filter.sql}
      GROUP BY 1, 2`,
    [...cte.bindings, ...filter.bindings]
  )
  return (result.rows as Record<string, any>[]).map((row) => ({
    bucket: row.bucket as number,
    key: row.key as string | null,
    views: Number(row.views),
    starts: Number(row.starts),
    submissions: Number(row.submissions),
  }))
}
