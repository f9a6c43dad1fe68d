import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * An auction's transcript (DESIGN §14): who was pinged, who bid what, who took the lead and at
 * what clearing price. No personal data: ids and cents. Append-only, like the ledger, and its
 * SHA-256 digest is in the lead's trail (`lead.auctioned` by actor `auction:<digest>`), so a buyer
 * or a publisher can be shown why the lead went where it went and that nobody changed it since.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE auctions (
        id uuid PRIMARY KEY,
        lead_id uuid NOT NULL,
        publisher_id uuid NOT NULL REFERENCES publishers (id),
        environment text NOT NULL,
        transcript jsonb NOT NULL,
        digest char(64) NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX auctions_lead_index ON auctions (lead_id);
      CREATE FUNCTION auctions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'auctions is append-only'; END $$;
      CREATE TRIGGER auctions_no_update BEFORE UPDATE OR DELETE ON auctions
        FOR EACH ROW EXECUTE FUNCTION auctions_append_only();
      CREATE TRIGGER auctions_no_truncate BEFORE TRUNCATE ON auctions
        FOR EACH STATEMENT EXECUTE FUNCTION auctions_append_only();
    `)
  }

  async down() {
    this.schema.raw(`
      DROP TABLE IF EXISTS auctions;
      DROP FUNCTION IF EXISTS auctions_append_only();
    `)
  }
}
