import db from '@adonisjs/lucid/services/db'

export const SETTLEMENT_PRICE_CENTS = 2500
export const SETTLEMENT_PAYOUT_CENTS = 1800

/** Sales per seeding statement (their facts, sales and ledger rows). */
const LEADS_PER_STATEMENT = 100_000

/**
 * What `leads` matched leads whose return windows closed would leave behind,
 * spread evenly over `publishers` publishers of one label (weekly payouts,
 * no minimum) and one buyer, written by SQL (generate_series):
 *
 * - the publishers' rows (no tenant schema: a payout run and the settlement
 *   view read only the public schema; marking a payout paid would need the
 *   leads themselves, and is not measured here);
 * - one `lead_facts` row and one `sales` row per lead, in the order they arrived (time-ordered
 *   ids, the publishers' leads interleaved as intake would write them): matched, final
 *   (`payable`), on no payout, final between 37 and 8 days ago — so inside the last full week's
 *   run (a run reads the sales; the facts are the lead's summary);
 * - three ledger rows per lead: its sale and acceptance as one balanced
 *   movement with the same result on every account (buyer payable +price,
 *   publisher payable −payout, margin earned −(price − payout)).
 *
 * Answers the publisher whose settlement view is measured.
 */
export async function seedSettlement(leads: number, publishers: number) {
  const [label] = await db
    .table('labels')
    .insert({
      id: db.raw('gen_random_uuid()'),
      slug: 'bench-settlement',
      name: 'Bench settlement',
      branding: '{}',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning('id')
  await db.table('settlement_policies').insert({
    label_id: label.id,
    payout_schedule: 'weekly',
    minimum_payout_cents: 0,
    updated_at: new Date(),
  })
  const [buyer] = await db
    .table('buyers')
    .insert({
      id: db.raw('gen_random_uuid()'),
      name: 'Bench buyer',
      contact_email: 'bench-buyer@bench.example',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning('id')
  await db.rawQuery(
    `INSERT INTO publishers (id, slug, name, contact_email, status, delivery_methods, schema_name,
                             label_id, created_at, updated_at)
     SELECT gen_random_uuid(), 'bench-pub-' || n, 'Bench publisher ' || n,
            'bench-pub-' || n || '@bench.example', 'live', '{api}', 'pub_bench_' || n, ?, now(), now()
       FROM generate_series(1, ?) AS n`,
    [label.id, publishers]
  )
  const rows = await db.from('publishers').orderBy('slug').select('id')
  const ids: string[] = rows.map((row) => row.id)
  for (let start = 0; start < leads; start += LEADS_PER_STATEMENT) {
    const last = Math.min(leads, start + LEADS_PER_STATEMENT)
    await db.rawQuery(
      `WITH sold AS (
         SELECT lead_id, publisher_id, gen_random_uuid() AS movement_id, settles_at FROM (
           SELECT (?::uuid[])[n % ? + 1] AS publisher_id, at AS settles_at,
                  -- UUIDv7 as the application makes them: time-ordered, so the heap and the
                  -- primary key hold the leads in the order they arrived, publishers interleaved.
                  (lpad(to_hex((extract(epoch FROM at) * 1000)::bigint), 12, '0') || '7'
                    || substr(md5(n::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid
                    AS lead_id
             FROM generate_series(?::int, ?::int) AS n,
                  LATERAL (SELECT now() - interval '37 days' + (n::float8 / ?) * interval '29 days' AS at) t
         ) s
       ), facts AS (
         INSERT INTO lead_facts (lead_id, publisher_id, label_id, buyer_id, channel, environment,
                                 status, price_cents, payout_cents, currency, created_at, updated_at,
                                 matched_at, routed_at, settles_at, settlement)
         SELECT lead_id, publisher_id, ?, ?, 'api', 'live', 'matched', ?, ?, 'EUR',
                settles_at - interval '7 days', settles_at, settles_at - interval '7 days',
                settles_at - interval '7 days', settles_at, 'payable'
           FROM sold
       ), sales AS (
         INSERT INTO sales (id, lead_id, publisher_id, label_id, buyer_id, environment, price_cents,
                            payout_cents, currency, exclusive, sold_at, settlement, settles_at)
         SELECT gen_random_uuid(), lead_id, publisher_id, ?, ?, 'live', ?, ?, 'EUR', true,
                settles_at - interval '7 days', 'payable', settles_at
           FROM sold
       )
       INSERT INTO ledger_entries (movement_id, kind, account, publisher_id, buyer_id, lead_id,
                                   amount_cents, currency, created_at)
       SELECT s.movement_id, 'acceptance', leg.account, s.publisher_id, ?, s.lead_id, leg.cents,
              'EUR', s.settles_at
         FROM sold s CROSS JOIN LATERAL (VALUES
           ('buyer:' || ?::text || ':payable', ?::bigint),
           ('publisher:' || s.publisher_id || ':payable', -?::bigint),
           ('operator:margin:earned', ?::bigint - ?::bigint)
         ) AS leg(account, cents)`,
      [
        ids,
        ids.length,
        start,
        last - 1,
        leads,
        label.id,
        buyer.id,
        SETTLEMENT_PRICE_CENTS,
        SETTLEMENT_PAYOUT_CENTS,
        label.id,
        buyer.id,
        SETTLEMENT_PRICE_CENTS,
        SETTLEMENT_PAYOUT_CENTS,
        buyer.id,
        buyer.id,
        SETTLEMENT_PRICE_CENTS,
        SETTLEMENT_PAYOUT_CENTS,
        SETTLEMENT_PAYOUT_CENTS,
        SETTLEMENT_PRICE_CENTS,
      ]
    )
  }
  return { labelId: label.id, buyerId: buyer.id, measuredPublisherId: ids[0] }
}
