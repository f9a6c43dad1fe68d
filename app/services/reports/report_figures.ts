import db from '@adonisjs/lucid/services/db'
import type { ReportDimension } from '#services/reports/types'
import type { Segment } from '#services/reports/report_period'

/**
 * Reading the rollups (database/migrations/1763780000400_create_report_rollups.ts): whole UTC
 * days and hours from `report_rollups` and its companions, the raw edges from
 * `report_fact_measures` (the same figures computed over `lead_facts`), summed per bucket.
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

const KEY_COLUMNS: Record<ReportDimension, string> = {
  publisher: 'r.publisher_id::text',
  label: 'r.label_id::text',
  buyer: 'r.buyer_id::text',
  channel: 'r.channel',
}

export type Grouping = ReportDimension | null

function keyOf(groupBy: Grouping) {
  return groupBy ? KEY_COLUMNS[groupBy] : 'NULL::text'
}

/** The segments as a relation `s`, passed as four arrays so the statement stays one size. */
function segmentsCte(segments: Segment[]) {
  return {
    sql: `WITH s AS (SELECT * FROM unnest(?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[])
                       AS s(bucket, grain, from_at, to_at))`,
    bindings: [
      segments.map((s) => s.bucket),
      segments.map((s) => s.grain),
      segments.map((s) => s.from.toISOString()),
      segments.map((s) => s.to.toISOString()),
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
 * `rolled` reads a rollup table joined to its segments, `raw` the view over the facts; both
 * must answer the same columns.
 */
async function union(
  segments: Segment[],
  conditions: Condition[],
  parts: {
    rolled: string
    rollupTable: string
    raw: string
    rawJoin?: string
    rawFilter?: string
    outer: string
  }
) {
  if (segments.length === 0) return []
  const cte = segmentsCte(segments)
  const filter = where(conditions)
  const sql = `${cte.sql}
    ${parts.outer.replace(
      '$SOURCE',
      // Each segment reads its own range of the index (OFFSET 0 keeps the planner from
      // flattening the lateral reads into one hash join over the whole table).
      () => `SELECT ${parts.rolled} FROM s CROSS JOIN LATERAL (
          SELECT * FROM ${parts.rollupTable} r
           WHERE r.grain = s.grain AND r.at >= s.from_at AND r.at < s.to_at${filter.sql} OFFSET 0) r
        WHERE s.grain <> 'raw'
       UNION ALL
       SELECT ${parts.raw} FROM s CROSS JOIN LATERAL (
          SELECT * FROM report_fact_measures r
           WHERE r.created_at >= s.from_at AND r.created_at < s.to_at${filter.sql} OFFSET 0) r${parts.rawJoin ?? ''}
        WHERE s.grain = 'raw'${parts.rawFilter ?? ''}`
    )}`
  const result = await db.rawQuery(sql, [...cte.bindings, ...filter.bindings, ...filter.bindings])
  return result.rows as Record<string, any>[]
}

export type SumsRow = { bucket: number; key: string | null; currency: string | null } & Sums

/** The sums per bucket, group and currency. */
export async function readSums(segments: Segment[], groupBy: Grouping, conditions: Condition[]) {
  const columns = `s.bucket, ${keyOf(groupBy)} AS key, r.currency, ${MEASURES.map((m) => `r.${m}`).join(', ')}`
  const rows = await union(segments, conditions, {
    rolled: columns,
    rollupTable: 'report_rollups',
    raw: columns,
    outer: `SELECT bucket, key, currency, ${MEASURES.map((m) => `sum(${m})::bigint AS ${m}`).join(', ')}
              FROM ($SOURCE) u GROUP BY bucket, key, currency`,
  })
  return rows.map((row) => {
    const sums = Object.fromEntries(MEASURES.map((m) => [m, Number(row[m])])) as Sums
    return { bucket: row.bucket, key: row.key, currency: row.currency, ...sums } as SumsRow
  })
}

/** The reason codes of flagged and rejected leads, counted per bucket and group. */
export async function readReasons(segments: Segment[], groupBy: Grouping, conditions: Condition[]) {
  const rows = await union(segments, conditions, {
    rolled: `s.bucket, ${keyOf(groupBy)} AS key, r.code, r.count`,
    rollupTable: 'report_rollup_reasons',
    raw: `s.bucket, ${keyOf(groupBy)} AS key, code, 1 AS count`,
    rawJoin: ' CROSS JOIN LATERAL unnest(r.reason_codes) AS code',
    rawFilter: ' AND r.reasoned',
    outer: `SELECT bucket, key, code, sum(count)::bigint AS count
              FROM ($SOURCE) u GROUP BY bucket, key, code HAVING sum(count) > 0`,
  })
  return rows.map((row) => ({
    bucket: row.bucket as number,
    key: row.key as string | null,
    code: row.code as string,
    count: Number(row.count),
  }))
}

/**
 * The 90th percentile of processing time per bucket and group, exact: the smallest value whose
 * cumulative count reaches 90 % (what `percentile_disc(0.9)` answers over the facts).
 */
export async function readP90(segments: Segment[], groupBy: Grouping, conditions: Condition[]) {
  const rows = await union(segments, conditions, {
    rolled: `s.bucket, ${keyOf(groupBy)} AS key, r.processing_ms, r.count`,
    rollupTable: 'report_rollup_latency',
    raw: `s.bucket, ${keyOf(groupBy)} AS key, r.processing_ms, 1 AS count`,
    rawFilter: ' AND r.processing_ms IS NOT NULL',
    outer: `SELECT bucket, key, min(processing_ms) FILTER (WHERE cum * 10 >= total * 9) AS p90
              FROM (SELECT bucket, key, processing_ms,
                           sum(n) OVER (PARTITION BY bucket, key ORDER BY processing_ms) AS cum,
                           sum(n) OVER (PARTITION BY bucket, key) AS total
                      FROM (SELECT bucket, key, processing_ms, sum(count) AS n
                              FROM ($SOURCE) u GROUP BY bucket, key, processing_ms
                            HAVING sum(count) > 0) h) c
             GROUP BY bucket, key`,
  })
  return rows.map((row) => ({
    bucket: row.bucket as number,
    key: row.key as string | null,
    p90: row.p90 === null ? null : Number(row.p90),
  }))
}

/**
 * Form views, starts and submissions per bucket and group. The forms domain counts them per
 * UTC day (`forms/form_counters.ts`), so a bucket counts every UTC day it touches. They are
 * live and of channel `form`, without a buyer: other filters match them as they would a lead.
 */
export async function readFunnel(periods: Segment[], groupBy: Grouping, conditions: Condition[]) {
  const cte = segmentsCte(periods)
  const filter = where(conditions)
  const result = await db.rawQuery(
    `${cte.sql}
     SELECT s.bucket, ${keyOf(groupBy)} AS key, sum(r.views)::bigint AS views,
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
