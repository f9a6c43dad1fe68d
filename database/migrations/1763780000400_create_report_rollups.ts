import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The report rollups (docs/reports.md): per UTC period, the figures of the leads created in it,
 * in two cubes. The wide one is keyed by publisher, label, buyer, channel, environment and
 * currency, per day and month only: at hour grain it compressed nothing (6.9 M hour rows for
 * 10 M facts), so partial days are read from the facts. The narrow one drops buyer and channel,
 * which most reports neither filter nor group by, and keeps hours too. Statement triggers on
 * `lead_facts` keep both exact: every statement subtracts what its old rows counted and adds
 * what its new rows count, grouped, in one statement, in the writer's transaction.
 * Only ids, counts and cents: no personal data.
 */
const WIDE = ['publisher_id', 'label_id', 'buyer_id', 'channel', 'environment', 'currency']
const NARROW = ['publisher_id', 'label_id', 'environment', 'currency']

type Cube = { prefix: string; dimensions: string[]; grains: string[] }
const CUBES: Cube[] = [
  { prefix: 'report_rollup', dimensions: WIDE, grains: ['day', 'month'] },
  {
    prefix: 'report_publisher_rollup',
    dimensions: NARROW,
    grains: ['hour', 'day', 'week', 'month'],
  },
]

/** What one fact counts, as SQL over a `lead_facts` row `f`; the view and the triggers share it. */
const MEASURES: [string, string][] = [
  ['volume', '1'],
  ['accepted', `(f.status NOT IN ('received', 'flagged', 'rejected'))::int`],
  ['flagged', `(f.status = 'flagged')::int`],
  ['rejected', `(f.status = 'rejected')::int`],
  ['matched', '(f.matched_at IS NOT NULL)::int'],
  ['kept', `(f.matched_at IS NOT NULL AND f.settlement IS DISTINCT FROM 'returned')::int`],
  ['returns', `(f.settlement IS NOT DISTINCT FROM 'returned')::int`],
  [
    'revenue_cents',
    `CASE WHEN f.matched_at IS NOT NULL AND f.settlement IS DISTINCT FROM 'returned'
          THEN coalesce(f.price_cents, 0) ELSE 0 END`,
  ],
  [
    'payout_cents',
    `CASE WHEN f.matched_at IS NOT NULL AND f.settlement IS DISTINCT FROM 'returned'
          THEN coalesce(f.payout_cents, 0) ELSE 0 END`,
  ],
  ['processing_count', '(f.processing_ms IS NOT NULL)::int'],
  ['processing_ms_sum', 'coalesce(f.processing_ms, 0)'],
]
const NAMES = MEASURES.map(([name]) => name)

/** The reasons of a lead that was flagged or rejected count towards the top reasons. */
const REASONED = `f.status IN ('flagged', 'rejected')`

/**
 * The processing-time histogram's bucket of a value (docs/reports.md, "p90"): the value itself
 * below 1024 ms, where nearly every lead falls; above, buckets 1.9 % wide, each answered by
 * 1.0095 × its lower bound, so the answer is within 1 % of any value in it. Monotonic, so the
 * p90 of the buckets is the bucket of the p90.
 */
const BUCKET_FUNCTION = `
  CREATE FUNCTION report_latency_bucket(ms integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN ms < 1024 THEN ms
                ELSE round(1024 * 1.019 ^ floor(ln(ms / 1024.0) / ln(1.019)) * 1.0095)::int END
  $$`

/**
 * The three tables of a cube, each with its key columns (grain and `at` first) and values.
 * Reasons and the histogram keep no hours: an hour's rows were as many as its facts (2.4 M
 * reason rows for 3 M reasoned facts, 8.2 M histogram rows for 10 M), so the partial days at
 * a period's ends are read from the facts for them. Only the histogram keeps ISO weeks (UTC
 * Mondays): a day costs it one row per distinct millisecond, so the days of a partial month
 * were most of a p90's rows.
 */
function tablesOf(cube: Cube) {
  const noCurrency = cube.dimensions.filter((d) => d !== 'currency')
  const noHours = cube.grains.filter((g) => g !== 'hour')
  const grainsOf = (kind: string) =>
    kind === 'sums'
      ? cube.grains.filter((g) => g !== 'week')
      : kind === 'reasons'
        ? noHours.filter((g) => g !== 'week')
        : noHours
  return [
    { name: `${cube.prefix}s`, key: cube.dimensions, extra: [] as string[], kind: 'sums' },
    { name: `${cube.prefix}_reasons`, key: noCurrency, extra: ['code'], kind: 'reasons' },
    { name: `${cube.prefix}_latency`, key: noCurrency, extra: ['bucket_ms'], kind: 'latency' },
  ].map((table) => ({
    ...table,
    grains: grainsOf(table.kind),
    columns: ['grain', 'at', ...table.key, ...table.extra],
  }))
}
type Table = ReturnType<typeof tablesOf>[number]

const COLUMN_TYPES: Record<string, string> = {
  publisher_id: 'uuid NOT NULL',
  label_id: 'uuid',
  buyer_id: 'uuid',
  channel: 'text NOT NULL',
  environment: 'text NOT NULL',
  currency: 'text',
  code: 'text NOT NULL',
  bucket_ms: 'integer NOT NULL',
}

/** What a table adds up, as `[column, expression over the source d]`. */
function valuesOf(table: Table): [string, string][] {
  if (table.kind === 'sums') return NAMES.map((name) => [name, `sum(sign * ${name})`])
  return [['count', 'sum(sign)']]
}

/**
 * One statement applying the facts of `sources` (relation, +1 or -1) to every rollup table.
 * Groups whose figures net to zero (a column no figure reads changed) write nothing; rows are
 * upserted in key order so two writers lock them in the same order.
 */
function applySql(sources: [string, 1 | -1][]) {
  const facts = sources
    .map(
      ([relation, sign]) =>
        `SELECT ${sign} AS sign, f.created_at, ${WIDE.map((d) => `f.${d}`).join(', ')},
                report_latency_bucket(f.processing_ms) AS bucket_ms,
                CASE WHEN ${REASONED} THEN f.reason_codes ELSE '{}' END AS reasons,
                ${MEASURES.map(([name, sql]) => `(${sql}) AS ${name}`).join(', ')}
           FROM ${relation} f`
    )
    .join(' UNION ALL ')
  const ctes = [`facts AS MATERIALIZED (${facts})`]
  let last = ''
  CUBES.forEach((cube, c) => {
    ctes.push(`d${c} AS MATERIALIZED (
      SELECT g.grain, date_trunc(g.grain, f.created_at, 'UTC') AS at, f.*
        FROM facts f CROSS JOIN (VALUES ${cube.grains.map((g) => `('${g}')`).join(', ')}) g(grain))`)
    for (const table of tablesOf(cube)) {
      const cols = table.columns.join(', ')
      const values = valuesOf(table)
      const grains = `d${c}.grain IN (${table.grains.map((g) => `'${g}'`).join(', ')})`
      const from =
        table.kind === 'reasons'
          ? `d${c}, unnest(d${c}.reasons) code WHERE ${grains}`
          : table.kind === 'latency'
            ? `d${c} WHERE bucket_ms IS NOT NULL AND ${grains}`
            : `d${c} WHERE ${grains}`
      const insert = `INSERT INTO ${table.name} (${cols}, ${values.map(([n]) => n).join(', ')})
        SELECT ${cols}, ${values.map(([n, sql]) => `${sql} AS ${n}`).join(', ')} FROM ${from}
         GROUP BY ${cols} HAVING ${values.map(([, sql]) => `${sql} <> 0`).join(' OR ')}
         ORDER BY ${cols}
        ON CONFLICT (${cols}) DO UPDATE SET
          ${values.map(([n]) => `${n} = ${table.name}.${n} + EXCLUDED.${n}`).join(', ')}`
      // Each upsert but the last is a data-modifying CTE of the one statement.
      if (last) ctes.push(`upsert_${ctes.length} AS (${last})`)
      last = insert
    }
  })
  return `WITH ${ctes.join(',\n')}\n${last}`
}

/**
 * Every rollup rebuilt from the facts, set-based: the finest grain of each table from
 * `report_fact_measures`, each coarser one from the grain below it (weeks and months from days). For a bulk load (and the
 * benchmark's `--reuse`), far faster than the triggers' row-by-group upserts.
 */
function rebuildSql() {
  const statements: string[] = []
  for (const cube of CUBES) {
    for (const table of tablesOf(cube)) {
      statements.push(`TRUNCATE ${table.name}`)
      const valueNames = valuesOf(table).map(([n]) => n)
      const rest = table.columns.slice(2).join(', ')
      const [finest, ...coarser] = table.grains
      const source =
        table.kind === 'reasons'
          ? `report_fact_measures r, unnest(r.reason_codes) code WHERE r.reasoned`
          : table.kind === 'latency'
            ? `report_fact_measures r WHERE r.bucket_ms IS NOT NULL`
            : `report_fact_measures r`
      const sums =
        table.kind === 'sums' ? valueNames.map((n) => `sum(${n})`).join(', ') : 'count(*)'
      statements.push(`INSERT INTO ${table.name} (${table.columns.join(', ')}, ${valueNames.join(', ')})
        SELECT '${finest}', date_trunc('${finest}', created_at, 'UTC'), ${rest}, ${sums}
          FROM ${source} GROUP BY 2, ${rest}`)
      let below = finest
      for (const grain of coarser) {
        // A week straddles months: both are built from days.
        if (below === 'week') below = 'day'
        statements.push(`INSERT INTO ${table.name} (${table.columns.join(', ')}, ${valueNames.join(', ')})
          SELECT '${grain}', date_trunc('${grain}', at, 'UTC'), ${rest},
                 ${valueNames.map((n) => `sum(${n})`).join(', ')}
            FROM ${table.name} WHERE grain = '${below}' GROUP BY 2, ${rest}`)
        below = grain
      }
    }
  }
  return statements.join(';\n')
}

const TRIGGERS: [string, string, [string, 1 | -1][]][] = [
  ['insert', 'INSERT', [['new_rows', 1]]],
  [
    'update',
    'UPDATE',
    [
      ['old_rows', -1],
      ['new_rows', 1],
    ],
  ],
  ['delete', 'DELETE', [['old_rows', -1]]],
]

const ALL_TABLES = CUBES.flatMap((cube) => tablesOf(cube).map((table) => table.name))

export default class extends BaseSchema {
  async up() {
    this.schema.raw(BUCKET_FUNCTION)
    for (const cube of CUBES) {
      for (const table of tablesOf(cube)) {
        const columns = table.columns.slice(2).map((c) => `${c} ${COLUMN_TYPES[c]}`)
        const values =
          table.kind === 'sums'
            ? NAMES.map((name) => `${name} bigint NOT NULL DEFAULT 0`)
            : ['count bigint NOT NULL']
        // Key order is read order: one grain, a range of `at`, then the groups. The histogram
        // and reasons carry their count in the index so a read of old periods never visits the
        // table (an index-only scan once vacuum has marked the pages all-visible).
        this.schema.raw(`
          CREATE TABLE ${table.name} (
            grain text NOT NULL CHECK (grain IN (${table.grains.map((g) => `'${g}'`).join(', ')})),
            at timestamptz NOT NULL, ${columns.join(', ')}, ${values.join(', ')});
          CREATE UNIQUE INDEX ${table.name}_key ON ${table.name} (${table.columns.join(', ')})
            ${table.kind === 'sums' ? '' : 'INCLUDE (count)'} NULLS NOT DISTINCT`)
      }
    }
    // The partial hours and days at a period's edges are read from the facts themselves. A
    // b-tree, not a BRIN: the newest pages, which "today" reads, are not summarised until a
    // vacuum runs.
    this.schema.raw(`CREATE INDEX lead_facts_created_at_index ON lead_facts (created_at)`)
    this.schema.raw(`
      CREATE VIEW report_fact_measures AS
      SELECT f.lead_id, f.created_at, ${WIDE.map((d) => `f.${d}`).join(', ')},
             f.status, f.reason_codes, f.processing_ms,
             report_latency_bucket(f.processing_ms) AS bucket_ms, (${REASONED}) AS reasoned,
             ${MEASURES.map(([name, sql]) => `(${sql}) AS ${name}`).join(', ')}
        FROM lead_facts f`)
    this.schema.raw(`
      CREATE FUNCTION report_rollups_rebuild() RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        ${rebuildSql()};
      END $$`)
    for (const [name, event, sources] of TRIGGERS) {
      const transition = sources
        .map(([relation]) => `${relation === 'old_rows' ? 'OLD' : 'NEW'} TABLE AS ${relation}`)
        .join(' ')
      this.schema.raw(`
        CREATE FUNCTION report_rollups_on_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${applySql(sources)};
          RETURN NULL;
        END $$;
        CREATE TRIGGER report_rollups_${name} AFTER ${event} ON lead_facts
          REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION report_rollups_on_${name}();`)
    }
    // Facts written before this migration.
    this.schema.raw('SELECT report_rollups_rebuild()')
  }

  async down() {
    for (const [name] of TRIGGERS) {
      this.schema.raw(`DROP TRIGGER report_rollups_${name} ON lead_facts`)
      this.schema.raw(`DROP FUNCTION report_rollups_on_${name}()`)
    }
    this.schema.raw('DROP FUNCTION report_rollups_rebuild()')
    this.schema.raw('DROP VIEW report_fact_measures')
    this.schema.raw('DROP INDEX lead_facts_created_at_index')
    this.schema.raw(`DROP TABLE ${ALL_TABLES.join(', ')}`)
    this.schema.raw('DROP FUNCTION report_latency_bucket(integer)')
  }
}
