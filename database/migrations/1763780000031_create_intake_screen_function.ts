import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * The first statement of an intake transaction, in one round trip:
     * enters the publisher's schema (set_config with is_local, i.e. SET
     * LOCAL), takes the duplicate rule's advisory locks in the order given,
     * then looks the keys up. Each statement of a VOLATILE function takes its
     * own snapshot, so the lookup sees every lead committed by whoever held
     * a lock before us: what the two separate statements guaranteed before.
     * The lookup is planned on every call, under the path just set, so each
     * call reads its own tenant's leads as they are now.
     */
    this.schema.raw(`
      CREATE FUNCTION intake_enter_and_screen(
        tenant text, lock_keys text[], email_keys text[], phone_keys text[],
        lead_environment text, since timestamptz
      ) RETURNS SETOF text LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM set_config('search_path', format('%I, public', tenant), true);
        PERFORM pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(lock_keys) AS k;
        -- One index probe per key (LATERAL ... LIMIT 1): an EXISTS may be planned as a scan of every lead.
        -- EXECUTE plans it afresh on every call, for the tenant's table as it is now.
        RETURN QUERY EXECUTE $q$
          SELECT 'email_key:' || v FROM unnest($1) AS v, LATERAL (
            SELECT 1 FROM leads l WHERE l.email_key = v AND l.environment = $3
              AND l.status <> 'rejected' AND l.created_at >= $4 LIMIT 1) hit
          UNION ALL
          SELECT 'phone_key:' || v FROM unnest($2) AS v, LATERAL (
            SELECT 1 FROM leads l WHERE l.phone_key = v AND l.environment = $3
              AND l.status <> 'rejected' AND l.created_at >= $4 LIMIT 1) hit
        $q$ USING email_keys, phone_keys, lead_environment, since;
      END $$;
    `)
  }

  async down() {
    this.schema.raw(
      'DROP FUNCTION IF EXISTS intake_enter_and_screen(text, text[], text[], text[], text, timestamptz)'
    )
  }
}
