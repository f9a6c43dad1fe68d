import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * One counter for the routing rule book: every statement that changes a
     * routing rule or a buyer bumps it, so a router tells whether its rules
     * in memory are current by reading one row (it used to aggregate every
     * rule and buyer on each routing transaction). The generation tells a
     * recreated database apart, whose counter starts again from zero.
     */
    this.schema.raw(`
      CREATE TABLE routing_book_version (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        generation uuid NOT NULL DEFAULT gen_random_uuid(),
        version bigint NOT NULL DEFAULT 0
      );
      INSERT INTO routing_book_version DEFAULT VALUES;
      CREATE FUNCTION bump_routing_book_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE routing_book_version SET version = version + 1;
        RETURN NULL;
      END $$;
      CREATE TRIGGER routing_rules_bump_book_version
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON routing_rules
        FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_book_version();
      CREATE TRIGGER buyers_bump_book_version
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON buyers
        FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_book_version();
    `)
  }

  async down() {
    this.schema.raw(`
      DROP TRIGGER IF EXISTS buyers_bump_book_version ON buyers;
      DROP TRIGGER IF EXISTS routing_rules_bump_book_version ON routing_rules;
      DROP FUNCTION IF EXISTS bump_routing_book_version();
      DROP TABLE IF EXISTS routing_book_version;
    `)
  }
}
