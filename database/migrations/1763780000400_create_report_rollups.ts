import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The report rollups (docs/reports.md): per UTC hour, day and month, per publisher, label,
 * buyer, channel, environment and currency, the figures of the leads created in it. Statement
 * triggers on `lead_facts` keep them exact: every statement subtracts what its old rows counted
 * and adds what its new rows count, grouped, in one statement, in the writer's transaction.
 * Only ids, counts and cents: no personal data.
 */
const DIMENSIONS = ['publisher_id', 'label_id', 'buyer_id', 'channel', 'environment', 'currency']

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
const KEY = ['grain', 'at', ...DIMENSIONS]
const keyList = KEY.join(', ')

/** The reasons of a lead that was flagged or rejected count towards the top reasons. */
const REASONED = `f.status IN ('flagged', 'rejected')`

/**
 * One statement applying the facts of `sources` (relation, +1 or -1) to the three rollup
 * tables. Groups whose figures net to zero (a column no figure reads changed) write nothing;
 * rows are upserted in key order so two writers lock them in the same order.
 */
function applySql(sources: [string, 1 | -1][]) {
  const facts = sources
    .map(
      ([relation, sign]) =>
        `SELECT ${sign} AS sign, f.created_at, ${DIMENSIONS.map((d) => `f.${d}`).join(', ')},
                f.processing_ms, CASE WHEN ${REASONED} THEN f.reason_codes ELSE '{}' END AS reasons,
                ${MEASURES.map(([name, sql]) => `(${sql}) AS ${name}`).join(', ')}
           FROM ${relation} f`
    )
    .join(' UNION ALL ')
  const sums = NAMES.map((name) => `sum(sign * ${name}) AS ${name}`).join(', ')
  const changed = NAMES.map((name) => `sum(sign * ${name}) <> 0`).join(' OR ')
  const add = NAMES.map((name) => `${name} = report_rollups.${name} + EXCLUDED.${name}`).join(', ')
  return `
    WITH d AS MATERIALIZED (
      SELECT g.grain, date_trunc(g.grain, f.created_at, 'UTC') AS at, f.*
        FROM (${facts}) f CROSS JOIN (VALUES ('hour'), ('day'), ('month')) g(grain)
    ), reasons AS (
      INSERT INTO report_rollup_reasons (${keyList}, code, count)
      SELECT ${keyList}, code, sum(sign) FROM d, unnest(d.reasons) code
       GROUP BY ${keyList}, code HAVING sum(sign) <> 0 ORDER BY ${keyList}, code
      ON CONFLICT (${keyList}, code)
      DO UPDATE SET count = report_rollup_reasons.count + EXCLUDED.count
    ), latency AS (
      INSERT INTO report_rollup_latency (${keyList}, processing_ms, count)
      SELECT ${keyList}, processing_ms, sum(sign) FROM d WHERE processing_ms IS NOT NULL
       GROUP BY ${keyList}, processing_ms HAVING sum(sign) <> 0 ORDER BY ${keyList}, processing_ms
      ON CONFLICT (${keyList}, processing_ms)
      DO UPDATE SET count = report_rollup_latency.count + EXCLUDED.count
    )
    INSERT INTO report_rollups (${keyList}, ${NAMES.join(', ')})
    SELECT ${keyList}, ${sums} FROM d GROUP BY ${keyList} HAVING ${changed} ORDER BY ${keyList}
    ON CONFLICT (${keyList}) DO UPDATE SET ${add}`
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

export default class extends BaseSchema {
  async up() {
    const dimensionColumns = `
      grain text NOT NULL CHECK (grain IN ('hour', 'day', 'month')),
      at timestamptz NOT NULL,
      publisher_id uuid NOT NULL,
      label_id uuid,
      buyer_id uuid,
      channel text NOT NULL,
      environment text NOT NULL,
      currency text`
    this.schema.raw(`
      CREATE TABLE report_rollups (${dimensionColumns},
        ${NAMES.map((name) => `${name} bigint NOT NULL DEFAULT 0`).join(', ')});
      CREATE UNIQUE INDEX report_rollups_key ON report_rollups (${keyList}) NULLS NOT DISTINCT;
      CREATE TABLE report_rollup_reasons (${dimensionColumns},
        code text NOT NULL, count bigint NOT NULL);
      CREATE UNIQUE INDEX report_rollup_reasons_key
        ON report_rollup_reasons (${keyList}, code) NULLS NOT DISTINCT;
      CREATE TABLE report_rollup_latency (${dimensionColumns},
        processing_ms integer NOT NULL, count bigint NOT NULL);
      CREATE UNIQUE INDEX report_rollup_latency_key
        ON report_rollup_latency (${keyList}, processing_ms) NULLS NOT DISTINCT;
    `)
    // The partial hours at a period's edges are read from the facts themselves. A b-tree, not
    // a BRIN: the newest pages, which "today" reads, are not summarised until a vacuum runs.
    this.schema.raw(`CREATE INDEX lead_facts_created_at_index ON lead_facts (created_at)`)
    this.schema.raw(`
      CREATE VIEW report_fact_measures AS
      SELECT f.lead_id, f.created_at, ${DIMENSIONS.map((d) => `f.${d}`).join(', ')},
             f.status, f.reason_codes, f.processing_ms, (${REASONED}) AS reasoned,
             ${MEASURES.map(([name, sql]) => `(${sql}) AS ${name}`).join(', ')}
        FROM lead_facts f`)
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
    this.schema.raw(applySql([['lead_facts', 1]]))
  }

  async down() {
    for (const [name] of TRIGGERS) {
      this.schema.raw(`DROP TRIGGER report_rollups_${name} ON lead_facts`)
      this.schema.raw(`DROP FUNCTION report_rollups_on_${name}()`)
    }
    this.schema.raw('DROP VIEW report_fact_measures')
    this.schema.raw('DROP INDEX lead_facts_created_at_index')
    this.schema.raw('DROP TABLE report_rollup_latency, report_rollup_reasons, report_rollups')
  }
}
