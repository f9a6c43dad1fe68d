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
