import db from '@adonisjs/lucid/services/db'

/** Facts per seeding statement: each fires the rollup triggers once, as a large group commit would. */
const FACTS_PER_STATEMENT = 250_000

/**
 * `facts` leads over the last 13 months, spread over `publishers` publishers of five labels
 * (one in Europe/Berlin) and 20 buyers, written by SQL (generate_series) through the real
 * rollup triggers. Publishers differ in size (a few large, many small); each sells to three
 * buyers (its routing rules) and delivers through two channels. Of every ten leads five are
 * sold (one in twenty of those returned), two accepted and unsold, one flagged, two rejected
 * with a reason; processing times cluster at a few milliseconds with a long tail.
 */
export async function seedReportFacts(facts: number, publishers: number) {
  await db.rawQuery(
    `INSERT INTO labels (id, slug, name, branding, time_zone, created_at, updated_at)
     SELECT gen_random_uuid(), 'bench-label-' || n, 'Bench label ' || n, '{}',
            CASE WHEN n = 1 THEN 'Europe/Berlin' ELSE 'UTC' END, now(), now()
       FROM generate_series(1, 5) AS n`
  )
  const labelRows = await db.from('labels').orderBy('slug').select('id')
  const labels = labelRows.map((row) => row.id)
  await db.rawQuery(
    `INSERT INTO publishers (id, slug, name, contact_email, status, delivery_methods, schema_name,
                             label_id, created_at, updated_at)
     SELECT gen_random_uuid(), 'bench-pub-' || lpad(n::text, 4, '0'), 'Bench publisher ' || n,
            'bench-pub-' || n || '@bench.example', 'live', '{api}', 'pub_bench_' || n,
            (?::uuid[])[n % 5 + 1], now(), now()
       FROM generate_series(1, ?) AS n`,
    [labels, publishers]
  )
  await db.rawQuery(
    `INSERT INTO buyers (id, name, contact_email, status, created_at, updated_at)
     SELECT gen_random_uuid(), 'Bench buyer ' || n, 'bench-buyer-' || n || '@bench.example',
            'active', now(), now()
       FROM generate_series(1, 20) AS n`
  )
  const pubs = await db.from('publishers').orderBy('slug').select('id', 'label_id')
  const buyerRows = await db.from('buyers').select('id')
  const buyers = buyerRows.map((row) => row.id)
  for (let start = 0; start < facts; start += FACTS_PER_STATEMENT) {
    const last = Math.min(facts, start + FACTS_PER_STATEMENT) - 1
    await db.rawQuery(
      `INSERT INTO lead_facts (lead_id, publisher_id, label_id, buyer_id, channel, environment,
                               status, reason_codes, price_cents, payout_cents, currency,
                               processing_ms, created_at, updated_at, matched_at, settlement)
       SELECT gen_random_uuid(), (?::uuid[])[p], (?::uuid[])[p],
              CASE WHEN sold THEN (?::uuid[])[(p * 7 + (r.b * 3)::int) % 20 + 1] END,
              (ARRAY['api', 'form', 'upload', 'request'])[(p + (r.c * 2)::int) % 4 + 1], 'live',
              CASE WHEN returned THEN 'returned' WHEN sold THEN 'matched'
                   WHEN kind < 7 THEN 'accepted' WHEN kind = 7 THEN 'flagged' ELSE 'rejected' END,
              CASE WHEN kind >= 7 THEN ARRAY[(ARRAY['invalid_phone', 'invalid_email', 'duplicate',
                   'missing_consent', 'outside_target_audience'])[(r.c * 5)::int % 5 + 1]] ELSE '{}' END,
              CASE WHEN sold THEN 1500 + n % 2000 END, CASE WHEN sold THEN 1000 + n % 500 END,
              CASE WHEN sold THEN 'EUR' END,
              3 + (r.m ^ 3 * 60)::int + CASE WHEN r.m > 0.99 THEN (r.b * 2000)::int ELSE 0 END,
              at, at, CASE WHEN sold THEN at + interval '2 seconds' END,
              CASE WHEN returned THEN 'returned' WHEN sold THEN 'payable' END
         FROM generate_series(?::int, ?::int) AS n,
              -- Per row (the n keeps them from being computed once): publisher (a few large,
              -- many small), outcome, buyer among the publisher's three, channel among its two.
              LATERAL (SELECT random() + n * 0 AS a, random() + n * 0 AS b, random() + n * 0 AS c,
                              random() + n * 0 AS m, random() + n * 0 AS k) r,
              LATERAL (SELECT 1 + (r.a ^ 2 * ?)::int % ? AS p, (r.k * 10)::int % 10 AS kind,
                              now() - interval '395 days' + (n::float8 / ?) * interval '395 days' AS at) t,
              LATERAL (SELECT kind < 5 AS sold, kind < 5 AND r.m < 0.05 AS returned) s`,
      [
        pubs.map((row) => row.id),
        pubs.map((row) => row.label_id),
        buyers,
        start,
        last,
        pubs.length,
        pubs.length,
        facts,
      ]
    )
  }
}

/** The rollup triggers on `lead_facts`, disabled for the measurement without them. */
const ROLLUP_TRIGGERS = ['report_rollups_insert', 'report_rollups_update', 'report_rollups_delete']

/**
 * What the rollup triggers add per lead as intake writes leads: groups of one and of 32 leads,
 * each group one INSERT and then one UPDATE that matches it (buyer, price, currency), written
 * by a PL/pgSQL loop with the triggers and again with them disabled, in one transaction that is
 * rolled back, each loop ending with a fold of what the triggers logged. Wall time of the one
 * backend, which is its CPU time on a quiet machine: nothing in the loop waits.
 */
export async function measureTriggerCost() {
  // eslint-disable-next-line no-restricted-properties -- never committed: rolled back below
  const trx = await db.transaction()
  try {
    await trx.rawQuery(`
      CREATE FUNCTION pg_temp.write_groups(groups int, size int) RETURNS float8
      LANGUAGE plpgsql AS $$
      DECLARE
        pubs uuid[]; labels uuid[]; buyers uuid[]; ids uuid[]; p int;
        started timestamptz := clock_timestamp();
      BEGIN
        SELECT array_agg(id ORDER BY slug), array_agg(label_id ORDER BY slug)
          INTO pubs, labels FROM publishers;
        SELECT array_agg(id ORDER BY id) INTO buyers FROM buyers;
        FOR g IN 1..groups LOOP
          p := 1 + (random() * (array_length(pubs, 1) - 1))::int;
          WITH written AS (
            INSERT INTO lead_facts (lead_id, publisher_id, label_id, channel, environment, status,
                                    reason_codes, processing_ms, created_at, updated_at)
            SELECT gen_random_uuid(), pubs[p], labels[p], 'api', 'live', 'accepted', '{}',
                   3 + (random() * 60)::int, now(), now()
              FROM generate_series(1, size)
            RETURNING lead_id)
          SELECT array_agg(lead_id) INTO ids FROM written;
          UPDATE lead_facts SET status = 'matched', buyer_id = buyers[1 + g % array_length(buyers, 1)],
                 price_cents = 1500, payout_cents = 1000, currency = 'EUR', matched_at = now(),
                 settlement = 'pending', updated_at = now()
           WHERE lead_id = ANY(ids);
        END LOOP;
        -- What the triggers logged and did not fold yet is part of their cost.
        IF to_regproc('report_rollups_fold') IS NOT NULL THEN
          PERFORM report_rollups_fold();
        END IF;
        RETURN extract(epoch FROM clock_timestamp() - started) * 1000 / (groups * size);
      END $$`)
    const perLead = async (groups: number, size: number) => {
      const result = await trx.rawQuery('SELECT pg_temp.write_groups(?, ?) AS ms', [groups, size])
      return Math.round(result.rows[0].ms * 1000) / 1000
    }
    const run = async () => {
      // A warm-up: the first statements plan the triggers' statements.
      await perLead(50, 1)
      return { 1: await perLead(1000, 1), 32: await perLead(100, 32) }
    }
    const withTriggers = await run()
    for (const name of ROLLUP_TRIGGERS) {
      await trx.rawQuery(`ALTER TABLE lead_facts DISABLE TRIGGER ${name}`)
    }
    const without = await run()
    return ([1, 32] as const).map((size) => ({
      group_size: size,
      without_ms: without[size],
      with_ms: withTriggers[size],
      added_ms: Math.round((withTriggers[size] - without[size]) * 1000) / 1000,
    }))
  } finally {
    await trx.rollback()
  }
}
