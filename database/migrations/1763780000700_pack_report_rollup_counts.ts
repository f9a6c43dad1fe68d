import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Two changes to the report rollups of 1763780000400 (docs/reports.md, "Rollups"):
 *
 * 1. Reason counts and processing-time histograms packed into one row per group and time block:
 *    the codes or buckets in one array, their counts in a parallel one, where each code or
 *    distinct millisecond had its row. A 90-day p90 by publisher read ~279,000 histogram rows
 *    (200 publishers × 13 blocks × ~54 milliseconds); packed it reads one row per publisher and
 *    block, and the reader merges the arrays. Packed, an hour is one row per publisher (it was
 *    about a row per fact), so the narrow reasons and histogram keep hours, and weeks, too: a
 *    period's partial days read hour rows instead of the facts.
 * 2. The triggers on `lead_facts` no longer upsert the rollups themselves: each appends the
 *    facts its statement changed, signed, to `report_fact_deltas` (one plain insert, ~0.02 ms
 *    a lead), and every 256th statement, or one of 1,000 facts or more, folds every committed
 *    delta into the rollups in one statement (`report_rollups_fold()`). Six upserts per
 *    statement cost ~0.7 ms a lead for intake's groups of one or two leads; folded together,
 *    the same upserts serve hundreds of leads. Readers add the deltas not folded yet, so every
 *    figure stays exact at every moment; the log lives in the writer's transaction like the
 *    rollups did.
 *
 * The sums tables, the bucket function and the view `report_fact_measures` stay as
 * 1763780000400 made them. Down restores that migration's schema by running its own down and up.
 */
const WIDE = ['publisher_id', 'label_id', 'buyer_id', 'channel', 'environment', 'currency']
const NARROW = ['publisher_id', 'label_id', 'environment', 'currency']

type Kind = 'sums' | 'reasons' | 'latency'
type Cube = { prefix: string; dimensions: string[]; grains: Record<Kind, string[]> }
const CUBES: Cube[] = [
  {
    prefix: 'report_rollup',
    dimensions: WIDE,
    grains: { sums: ['day', 'month'], reasons: ['day', 'month'], latency: ['day', 'month'] },
  },
  {
    prefix: 'report_publisher_rollup',
    dimensions: NARROW,
    grains: {
      sums: ['hour', 'day', 'week', 'month'],
      reasons: ['hour', 'day', 'week', 'month'],
      latency: ['hour', 'day', 'week', 'month'],
    },
  },
]

/**
 * What one fact counts in the sums, as SQL over a `lead_facts` row `f`: the expressions of
 * 1763780000400's view `report_fact_measures`, which the triggers' transition tables cannot
 * be read through.
 */
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

/** A packed table's array of what it counts, and that thing in one fact. */
const PACKED = {
  reasons: { column: 'codes', type: 'text[]', value: 'code' },
  latency: { column: 'buckets_ms', type: 'integer[]', value: 'bucket_ms' },
}

function tablesOf(cube: Cube) {
  const noCurrency = cube.dimensions.filter((d) => d !== 'currency')
  return (['sums', 'reasons', 'latency'] as const).map((kind) => {
    const key = kind === 'sums' ? cube.dimensions : noCurrency
    return {
      name: kind === 'sums' ? `${cube.prefix}s` : `${cube.prefix}_${kind}`,
      kind,
      grains: cube.grains[kind],
      key,
      columns: ['grain', 'at', ...key],
    }
  })
}
type Table = ReturnType<typeof tablesOf>[number]

const COLUMN_TYPES: Record<string, string> = {
  publisher_id: 'uuid NOT NULL',
  label_id: 'uuid',
  buyer_id: 'uuid',
  channel: 'text NOT NULL',
  environment: 'text NOT NULL',
  currency: 'text',
}

const PACKED_TABLES = CUBES.flatMap(tablesOf).filter((table) => table.kind !== 'sums')

/** Which facts of a source `d` (a fact per grain) a table counts, and what. */
function fromOf(table: Table, source: string) {
  const grains = `${source}.grain IN (${table.grains.map((g) => `'${g}'`).join(', ')})`
  if (table.kind === 'reasons') {
    return `${source}, unnest(${source}.reason_codes) code WHERE ${grains}`
  }
  if (table.kind === 'latency') return `${source} WHERE bucket_ms IS NOT NULL AND ${grains}`
  return `${source} WHERE ${grains}`
}

/**
 * The upsert of one table from `d` (the facts folded, signed, once per grain), with the CTEs it
 * reads. Sums add column by column. A packed row's counts are netted per code or bucket, added
 * to the stored row's unnested arrays and packed again, set-based: merging in the conflict
 * clause re-ran an aggregate and a sort per row (~95 µs a row). Reading the stored rows first
 * is safe because one fold runs at a time (`report_rollups_fold`). Groups that net to zero
 * write nothing; rows are written in key order so two writers lock them in the same order.
 */
function upsertSql(table: Table, source: string): { ctes: string[]; sql: string } {
  const cols = table.columns.join(', ')
  if (table.kind === 'sums') {
    const sums = NAMES.map((n) => `sum(sign * ${n})`)
    return {
      ctes: [],
      sql: `INSERT INTO ${table.name} (${cols}, ${NAMES.join(', ')})
        SELECT ${cols}, ${sums.map((sql, i) => `${sql} AS ${NAMES[i]}`).join(', ')}
          FROM ${fromOf(table, source)}
         GROUP BY ${cols} HAVING ${sums.map((sql) => `${sql} <> 0`).join(' OR ')}
         ORDER BY ${cols}
        ON CONFLICT (${cols}) DO UPDATE SET
          ${NAMES.map((n) => `${n} = ${table.name}.${n} + EXCLUDED.${n}`).join(', ')}`,
    }
  }
  const packed = PACKED[table.kind]
  const changed = `${table.name}_changed`
  const match = table.columns
    .map((c) =>
      COLUMN_TYPES[c]?.endsWith('NOT NULL') === false
        ? `t.${c} IS NOT DISTINCT FROM q.${c}`
        : `t.${c} = q.${c}`
    )
    .join(' AND ')
  const packedOf = (column: string) =>
    `coalesce(array_agg(${column} ORDER BY k) FILTER (WHERE n <> 0), '{}')`
  return {
    ctes: [
      `${changed} AS (SELECT ${cols}, ${packed.value} AS k, sum(sign)::integer AS n
         FROM ${fromOf(table, source)} GROUP BY ${cols}, k HAVING sum(sign) <> 0)`,
    ],
    sql: `INSERT INTO ${table.name} (${cols}, ${packed.column}, counts)
      SELECT ${cols}, ${packedOf('k')}, ${packedOf('n')}
        FROM (SELECT ${cols}, k, sum(n)::integer AS n
                FROM (SELECT ${cols}, k, n FROM ${changed}
                      UNION ALL
                      SELECT ${table.columns.map((c) => `t.${c}`).join(', ')}, u.k, u.n
                        FROM (SELECT DISTINCT ${cols} FROM ${changed}) q
                        JOIN ${table.name} t ON ${match}
                       CROSS JOIN unnest(t.${packed.column}, t.counts) AS u(k, n)) e
               GROUP BY ${cols}, k) m
       GROUP BY ${cols} ORDER BY ${cols}
      ON CONFLICT (${cols}) DO UPDATE SET (${packed.column}, counts) =
        (EXCLUDED.${packed.column}, EXCLUDED.counts)`,
  }
}

/** What a fact counts, logged per changed fact by the triggers and folded from the log. */
const DELTA_COLUMNS: [string, string, string][] = [
  ['created_at', 'timestamptz NOT NULL', 'f.created_at'],
  ...WIDE.map((d): [string, string, string] => [d, COLUMN_TYPES[d], `f.${d}`]),
  ['bucket_ms', 'integer', 'report_latency_bucket(f.processing_ms)'],
  ['reasoned', 'boolean NOT NULL', `f.status IN ('flagged', 'rejected')`],
  [
    'reason_codes',
    'text[] NOT NULL',
    `CASE WHEN f.status IN ('flagged', 'rejected') THEN f.reason_codes ELSE '{}' END`,
  ],
  ...MEASURES.map(([name, sql]): [string, string, string] => [name, 'integer NOT NULL', sql]),
]

/** The columns of `lead_facts` some figure reads: an update that changes none logs nothing. */
const READ_COLUMNS = [
  'created_at',
  ...WIDE,
  'status',
  'reason_codes',
  'price_cents',
  'payout_cents',
  'matched_at',
  'settlement',
  'processing_ms',
]

/** Statements between two folds, and the size of a statement that folds at once. */
export const FOLD_EVERY = 256
const FOLD_AT_FACTS = 1_000

/**
 * A trigger's one statement: the facts of `sources` (relation, +1 or -1) logged with their
 * sign. An update logs only the facts whose read columns changed (a sweeper's `routed_at`
 * logs nothing).
 */
function logSql(sources: [string, 1 | -1][]) {
  const same = (a: string, b: string) =>
    `(${READ_COLUMNS.map((c) => `${a}.${c}`).join(', ')}) IS NOT DISTINCT FROM (${READ_COLUMNS.map((c) => `${b}.${c}`).join(', ')})`
  const changed = sources.length === 2
  const facts = sources
    .map(([relation, sign]) => {
      const other = relation === 'old_rows' ? 'new_rows' : 'old_rows'
      const unchanged = changed
        ? ` WHERE NOT EXISTS (SELECT FROM ${other} o WHERE o.lead_id = f.lead_id AND ${same('o', 'f')})`
        : ''
      return `SELECT ${sign}, ${DELTA_COLUMNS.map(([, , sql]) => sql).join(', ')} FROM ${relation} f${unchanged}`
    })
    .join(' UNION ALL ')
  return `INSERT INTO report_fact_deltas (sign, ${DELTA_COLUMNS.map(([name]) => name).join(', ')}) ${facts}`
}

/**
 * The fold: every delta this transaction sees taken out of the log and added to every rollup
 * table, in one statement. One folder at a time (an advisory lock until its transaction ends;
 * a writer that finds it taken leaves the deltas to the next fold), so two folds never wait on
 * each other's rows; deltas of transactions still open are not visible, so stay for a later one.
 */
function foldSql() {
  const ctes = [`facts AS MATERIALIZED (DELETE FROM report_fact_deltas RETURNING *)`]
  const upserts: string[] = []
  CUBES.forEach((cube, c) => {
    const grains = [...new Set(Object.values(cube.grains).flat())]
    ctes.push(`d${c} AS MATERIALIZED (
      SELECT g.grain, date_trunc(g.grain, f.created_at, 'UTC') AS at, f.*
        FROM facts f CROSS JOIN (VALUES ${grains.map((g) => `('${g}')`).join(', ')}) g(grain))`)
    for (const table of tablesOf(cube)) {
      const upsert = upsertSql(table, `d${c}`)
      ctes.push(...upsert.ctes)
      upserts.push(upsert.sql)
    }
  })
  // Each upsert but the last is a data-modifying CTE of the one statement.
  const last = upserts.pop()
  upserts.forEach((sql, i) => ctes.push(`upsert_${i} AS (${sql})`))
  return `WITH ${ctes.join(',\n')}\n${last}`
}

/**
 * Every rollup rebuilt from the facts, set-based: the finest grain of each table from
 * `report_fact_measures`, each coarser one from days (a week straddles months). The log is
 * emptied first: the facts already hold what it says. Rows are written in key order, so a
 * period's rows lie together on disk: written in hash order, the 24,800 sum rows of a 90-day
 * report by publisher lay on 23,600 pages (42 ms warm, 198 ms once evicted).
 */
function rebuildSql() {
  const statements: string[] = ['TRUNCATE report_fact_deltas']
  for (const table of CUBES.flatMap(tablesOf)) {
    statements.push(`TRUNCATE ${table.name}`)
    const cols = table.columns.join(', ')
    const rest = table.key.join(', ')
    const [finest, ...coarser] = table.grains
    const source = (grain: string) => {
      const from = grain === 'week' || grain === 'month' ? 'day' : finest
      return grain === finest ? { grain, from: null } : { grain, from }
    }
    for (const { grain, from } of [finest, ...coarser].map(source)) {
      if (table.kind === 'sums') {
        const sums = NAMES.map((n) => (from ? `sum(${n})` : `sum(r.${n})`)).join(', ')
        statements.push(`INSERT INTO ${table.name} (${cols}, ${NAMES.join(', ')})
          SELECT '${grain}', date_trunc('${grain}', ${from ? 'at' : 'created_at'}, 'UTC'), ${rest}, ${sums}
            FROM ${from ? `${table.name} WHERE grain = '${from}'` : 'report_fact_measures r'}
           GROUP BY 2, ${rest} ORDER BY 2, ${rest}`)
        continue
      }
      const packed = PACKED[table.kind]
      const counted = from
        ? `SELECT date_trunc('${grain}', at, 'UTC') AS at, ${rest}, u.k, sum(u.n)::integer AS n
             FROM ${table.name}, unnest(${packed.column}, counts) AS u(k, n)
            WHERE grain = '${from}' GROUP BY 1, ${rest}, u.k`
        : table.kind === 'reasons'
          ? `SELECT date_trunc('${grain}', created_at, 'UTC') AS at, ${rest}, code AS k, count(*)::integer AS n
               FROM report_fact_measures r, unnest(r.reason_codes) code WHERE r.reasoned
              GROUP BY 1, ${rest}, code`
          : `SELECT date_trunc('${grain}', created_at, 'UTC') AS at, ${rest}, bucket_ms AS k, count(*)::integer AS n
               FROM report_fact_measures r WHERE r.bucket_ms IS NOT NULL
              GROUP BY 1, ${rest}, bucket_ms`
      statements.push(`INSERT INTO ${table.name} (${cols}, ${packed.column}, counts)
        SELECT '${grain}', at, ${rest}, array_agg(k ORDER BY k), array_agg(n ORDER BY k)
          FROM (${counted}) h GROUP BY at, ${rest} ORDER BY at, ${rest}`)
    }
  }
  return statements.join(';\n')
}

const TRIGGERS: [string, [string, 1 | -1][]][] = [
  ['insert', [['new_rows', 1]]],
  [
    'update',
    [
      ['old_rows', -1],
      ['new_rows', 1],
    ],
  ],
  ['delete', [['old_rows', -1]]],
]

/**
 * The three trigger functions: log the statement's facts, fold at once when it logged
 * `FOLD_AT_FACTS` or more, and with `foldEvery` also every that many statements (1763780000800
 * leaves that to the worker's rollup folder). Exported for that migration, which replaces them.
 */
export function triggerFunctionsSql(foldEvery: number | null) {
  const every = foldEvery
    ? `ELSIF logged > 0 THEN
            IF nextval('report_rollups_fold_seq') % ${foldEvery} = 0 THEN
              PERFORM report_rollups_fold();
            END IF;`
    : ''
  return TRIGGERS.map(
    ([name, sources]) => `
        CREATE OR REPLACE FUNCTION report_rollups_on_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE logged bigint;
        BEGIN
          ${logSql(sources)};
          GET DIAGNOSTICS logged = ROW_COUNT;
          IF logged >= ${FOLD_AT_FACTS} THEN
            PERFORM report_rollups_fold();
          ${every}
          END IF;
          RETURN NULL;
        END $$`
  )
}

export default class extends BaseSchema {
  async up() {
    for (const table of PACKED_TABLES) {
      const packed = PACKED[table.kind as keyof typeof PACKED]
      const columns = table.key.map((c) => `${c} ${COLUMN_TYPES[c]}`)
      // No count in the index any more: a row is read whole (its arrays), and an upsert that
      // changes only the arrays can stay on its page (a HOT update, no index entry).
      this.schema.raw(`
        DROP TABLE ${table.name};
        CREATE TABLE ${table.name} (
          grain text NOT NULL CHECK (grain IN (${table.grains.map((g) => `'${g}'`).join(', ')})),
          at timestamptz NOT NULL, ${columns.join(', ')},
          ${packed.column} ${packed.type} NOT NULL, counts integer[] NOT NULL);
        CREATE UNIQUE INDEX ${table.name}_key ON ${table.name} (${table.columns.join(', ')})
          NULLS NOT DISTINCT`)
    }
    // The narrow sums keep weeks too: a 90-day report by publisher read 24,800 sum rows, most of
    // them the days of partial months.
    for (const table of CUBES.flatMap(tablesOf).filter((t) => t.kind === 'sums')) {
      this.schema.raw(`
        ALTER TABLE ${table.name} DROP CONSTRAINT ${table.name}_grain_check,
          ADD CONSTRAINT ${table.name}_grain_check
          CHECK (grain IN (${table.grains.map((g) => `'${g}'`).join(', ')}))`)
    }
    // No index: the log holds the last few hundred statements' facts, read whole.
    this.schema.raw(`
      CREATE TABLE report_fact_deltas (
        sign smallint NOT NULL, ${DELTA_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
        WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
      CREATE SEQUENCE report_rollups_fold_seq`)
    this.schema.raw(`
      CREATE FUNCTION report_rollups_fold() RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF pg_try_advisory_xact_lock(hashtext('report_rollups_fold')) THEN
          ${foldSql()};
        END IF;
      END $$`)
    this.schema.raw(`
      CREATE OR REPLACE FUNCTION report_rollups_rebuild() RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        ${rebuildSql()};
      END $$`)
    for (const sql of triggerFunctionsSql(FOLD_EVERY)) this.schema.raw(sql)
    this.schema.raw('SELECT report_rollups_rebuild()')
  }

  async down() {
    const { default: Rollups } = await import('./1763780000400_create_report_rollups.js')
    const [undo, redo] = [
      new Rollups(this.db, this.file, this.dryRun),
      new Rollups(this.db, this.file, this.dryRun),
    ]
    this.defer(async () => {
      await undo.execDown()
      await redo.execUp()
    })
    this.schema.raw('DROP FUNCTION report_rollups_fold()')
    this.schema.raw('DROP TABLE report_fact_deltas')
    this.schema.raw('DROP SEQUENCE report_rollups_fold_seq')
  }
}
