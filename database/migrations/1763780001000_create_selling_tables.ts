import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Selling (DESIGN §14, docs/selling.md): how each buyer takes leads (destinations), what a
 * routing rule sells and how (mode, exclusive, spend caps, the buyer's own filters), a label's
 * sale settings, and one row per sale. Public schema, no personal data: what a buyer's system
 * answered lives with the lead in the publisher's schema (`sale_attempts`).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('destinations', (table) => {
      table.uuid('id').primary()
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers').onDelete('CASCADE')
      table.string('name', 120).notNullable()
      table.string('kind', 8).notNullable()
      /** The kind's settings without its secrets: `http`, `email` or `crm` as the API takes them. */
      table.jsonb('config').notNullable().defaultTo('{}')
      /** The secrets (auth, CRM tokens), sealed as JSON; never returned. */
      table.text('secrets').nullable()
      /** `whsec_` key signing what Leadgate sends to an http destination, sealed; shown once. */
      table.text('signing_secret').nullable()
      table.string('status', 8).notNullable().defaultTo('enabled')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['buyer_id', 'id'])
    })
    this.schema.raw(
      `ALTER TABLE destinations ADD CONSTRAINT destinations_kind_check
         CHECK (kind IN ('webhook', 'http', 'email', 'crm'))`
    )

    this.schema.alterTable('routing_rules', (table) => {
      // A destination in use cannot be deleted (the service answers 409), so no cascade.
      table.uuid('destination_id').nullable().references('id').inTable('destinations')
      table.string('mode', 10).notNullable().defaultTo('fixed')
      table.boolean('exclusive').notNullable().defaultTo(true)
      table.integer('reserve_cents').nullable()
      table.smallint('payout_share_percent').nullable()
      /** The buyer's own filters, narrowing the operator's criteria (same vocabulary). */
      table.jsonb('buyer_criteria').notNullable().defaultTo('[]')
      table.index(['destination_id'])
    })

    /** `{max_sales, deadline_seconds, tmax_ms, auction}`; null keeps every default. */
    this.schema.alterTable('labels', (table) => {
      table.jsonb('sale').nullable()
    })

    /**
     * Every sale of a lead: one for an exclusive sale, up to the label's `max_sales` for a shared
     * one, never two to one buyer.
     */
    this.schema.createTable('sales', (table) => {
      table.uuid('id').primary()
      table.uuid('lead_id').notNullable()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.uuid('label_id').nullable()
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers')
      // No foreign keys: a deleted rule or destination must not erase what sold a lead.
      table.uuid('routing_rule_id').nullable()
      table.uuid('destination_id').nullable()
      table.string('environment', 8).notNullable()
      table.integer('price_cents').notNullable()
      table.integer('payout_cents').notNullable()
      table.string('currency', 3).notNullable()
      table.boolean('exclusive').notNullable()
      /** The buyer's own id for the lead, when its system answered one. */
      table.string('buyer_lead_id', 200).nullable()
      table.timestamp('sold_at', { useTz: true }).notNullable()
      table.unique(['lead_id', 'buyer_id'])
      table.index(['buyer_id', 'sold_at'])
      table.index(['routing_rule_id', 'sold_at'])
    })
    // Every lead sold so far had one sale, as its facts say.
    this.schema.raw(`
      INSERT INTO sales (id, lead_id, publisher_id, label_id, buyer_id, routing_rule_id,
                         environment, price_cents, payout_cents, currency, exclusive, sold_at)
      SELECT gen_random_uuid(), lead_id, publisher_id, label_id, buyer_id, routing_rule_id,
             environment, coalesce(price_cents, 0), coalesce(payout_cents, 0),
             coalesce(currency, 'EUR'), true, coalesce(matched_at, updated_at)
        FROM lead_facts WHERE buyer_id IS NOT NULL`)

    /**
     * Where a lead's sale stands (`sale_status`: selling, sold, unsold); the post in flight holds
     * a lease (a worker that died mid-post leaves it to expire, and the sweeper re-offers the
     * lead); `sale_started_at` starts the label's sale deadline; `sale_attempts` counts the
     * lead's recorded attempts, so routing reads them only for leads that have some.
     */
    this.schema.alterTable('lead_facts', (table) => {
      table.string('sale_status', 8).nullable()
      table.timestamp('sale_started_at', { useTz: true }).nullable()
      table.timestamp('sale_lease_until', { useTz: true }).nullable()
      table.smallint('sale_attempts').notNullable().defaultTo(0)
    })
    this.schema.raw(`UPDATE lead_facts SET sale_status = 'sold' WHERE buyer_id IS NOT NULL`)
    this.schema.raw(
      `CREATE INDEX lead_facts_sale_lease_index ON lead_facts (sale_lease_until)
        WHERE sale_lease_until IS NOT NULL`
    )

    // A destination's change may change how rules sell: routers reload their rule book.
    this.schema.raw(`
      CREATE TRIGGER destinations_bump_book_version
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON destinations
        FOR EACH STATEMENT EXECUTE FUNCTION bump_routing_book_version();
    `)
  }

  async down() {
    this.schema.raw('DROP TRIGGER IF EXISTS destinations_bump_book_version ON destinations')
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_sale_lease_index')
    this.schema.alterTable('lead_facts', (table) => {
      table.dropColumn('sale_status')
      table.dropColumn('sale_started_at')
      table.dropColumn('sale_lease_until')
      table.dropColumn('sale_attempts')
    })
    this.schema.dropTable('sales')
    this.schema.alterTable('labels', (table) => table.dropColumn('sale'))
    this.schema.alterTable('routing_rules', (table) => {
      table.dropColumn('destination_id')
      table.dropColumn('mode')
      table.dropColumn('exclusive')
      table.dropColumn('reserve_cents')
      table.dropColumn('payout_share_percent')
      table.dropColumn('buyer_criteria')
    })
    this.schema.dropTable('destinations')
  }
}
