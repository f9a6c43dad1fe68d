import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Money (docs/money.md): the ledger, settlement per lead, disputes and payouts. Public schema,
 * no personal data: the free text of a dispute lives in the publisher's schema.
 */
export default class extends BaseSchema {
  async up() {
    /** How long a buyer may return a lead; a routing rule may say otherwise. 0: final at once. */
    this.schema.alterTable('buyers', (table) => {
      table.integer('return_window_hours').notNullable().defaultTo(168)
    })
    this.schema.alterTable('routing_rules', (table) => {
      table.integer('return_window_hours').nullable()
    })

    /** Where each sold lead stands in money: pending → payable → paid_out, or returned. */
    this.schema.alterTable('lead_facts', (table) => {
      table.timestamp('settles_at', { useTz: true }).nullable()
      table.string('settlement', 16).nullable()
      table.uuid('payout_id').nullable()
      table.index(['payout_id'])
    })
    this.schema.raw(
      `CREATE INDEX lead_facts_settling_index ON lead_facts (settles_at) WHERE settlement = 'pending'`
    )
    this.schema.raw(
      `CREATE INDEX lead_facts_payable_index ON lead_facts (publisher_id) WHERE settlement = 'payable'`
    )

    /** Per label: when publishers are paid and how disputes run. A label without a row has the defaults. */
    this.schema.createTable('settlement_policies', (table) => {
      table.uuid('label_id').primary().references('id').inTable('labels').onDelete('CASCADE')
      table.string('payout_schedule', 8).notNullable().defaultTo('monthly')
      table.bigInteger('minimum_payout_cents').notNullable().defaultTo(0)
      table.integer('response_hours').notNullable().defaultTo(72)
      table.integer('decision_hours').notNullable().defaultTo(120)
      table.string('default_outcome', 8).notNullable().defaultTo('upheld')
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    /**
     * The ledger: append-only, double entry. A movement is the set of rows one event writes
     * (a sale, an acceptance, a return, a payout, an adjustment), written by one statement; the
     * rows of each movement sum to zero per currency (checked by a statement trigger).
     * Positive amounts are owed to the platform, negative ones owed by it.
     */
    this.schema.raw(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        movement_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('sale', 'acceptance', 'return', 'clawback', 'payout', 'adjustment')),
        account text NOT NULL,
        publisher_id uuid NULL,
        buyer_id uuid NULL,
        lead_id uuid NULL,
        amount_cents bigint NOT NULL,
        currency char(3) NOT NULL,
        reference text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        xid xid8 NOT NULL DEFAULT pg_current_xact_id()
      );
      CREATE INDEX ledger_entries_account_index ON ledger_entries (account, xid);
      CREATE INDEX ledger_entries_lead_index ON ledger_entries (lead_id) WHERE lead_id IS NOT NULL;
      CREATE INDEX ledger_entries_movement_index ON ledger_entries (movement_id);

      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger_entries is append-only'; END $$;
      CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
      CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();

      CREATE FUNCTION ledger_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE unbalanced uuid;
      BEGIN
        SELECT movement_id INTO unbalanced FROM written
         GROUP BY movement_id, currency HAVING sum(amount_cents) <> 0 LIMIT 1;
        IF unbalanced IS NOT NULL THEN
          RAISE EXCEPTION 'ledger movement % does not sum to zero', unbalanced;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
        REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_balanced();
    `)

    /**
     * Maintained totals: each account's balance over the entries folded in so far. Entries are
     * folded once every transaction that could still write before a moment has ended
     * (transaction ids below the snapshot's xmin), so a balance is the folded total plus the
     * few entries after it, exactly, and no transaction waits on a hot balance row.
     */
    this.schema.raw(`
      CREATE TABLE ledger_balances (
        account text NOT NULL,
        currency char(3) NOT NULL,
        balance_cents bigint NOT NULL,
        PRIMARY KEY (account, currency)
      );
      CREATE TABLE ledger_folds (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        folded_below xid8 NOT NULL
      );
      INSERT INTO ledger_folds (folded_below) VALUES ('0'::xid8);
    `)

    /**
     * Disputes (returns): index data only; what the parties write lives in the publisher's
     * schema (dispute_messages). One open dispute per lead at a time.
     */
    this.schema.createTable('disputes', (table) => {
      table.uuid('id').primary()
      table.uuid('lead_id').notNullable()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers')
      table.uuid('label_id').nullable()
      table.uuid('routing_rule_id').nullable()
      table.string('reason', 32).notNullable()
      table.string('status', 16).notNullable()
      table.integer('price_cents').notNullable()
      table.integer('payout_cents').notNullable()
      table.string('currency', 3).notNullable()
      table.timestamp('delivered_at', { useTz: true }).notNullable()
      table.timestamp('opened_at', { useTz: true }).notNullable()
      table.timestamp('respond_by', { useTz: true }).notNullable()
      table.timestamp('decide_by', { useTz: true }).notNullable()
      table.timestamp('responded_at', { useTz: true }).nullable()
      table.timestamp('decided_at', { useTz: true }).nullable()
      table.string('decision', 8).nullable()
      table.string('decided_by', 80).nullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['publisher_id', 'id'])
      table.index(['buyer_id', 'id'])
      table.index(['lead_id'])
    })
    this.schema.raw(
      `CREATE UNIQUE INDEX disputes_one_open_per_lead ON disputes (lead_id) WHERE status IN ('open', 'responded')`
    )
    this.schema.raw(
      `CREATE INDEX disputes_deadline_index ON disputes (respond_by, decide_by) WHERE status IN ('open', 'responded')`
    )

    /** Payouts: one per publisher, period and currency; its lines are the leads it pays. */
    this.schema.createTable('payouts', (table) => {
      table.uuid('id').primary()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.uuid('label_id').nullable()
      table.string('currency', 3).notNullable()
      table.date('period_start').nullable()
      table.date('period_end').notNullable()
      table.bigInteger('amount_cents').notNullable()
      table.integer('lead_count').notNullable()
      table.string('status', 16).notNullable()
      table.string('reference', 200).nullable()
      table.string('failure', 500).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.timestamp('paid_at', { useTz: true }).nullable()
      table.unique(['publisher_id', 'period_end', 'currency'])
      table.index(['publisher_id', 'id'])
    })
    this.schema.createTable('payout_lines', (table) => {
      table.bigIncrements('id')
      table.uuid('payout_id').notNullable().references('id').inTable('payouts').onDelete('CASCADE')
      table.uuid('lead_id').nullable()
      table.string('kind', 16).notNullable()
      table.bigInteger('amount_cents').notNullable()
      table.index(['payout_id'])
    })
  }

  async down() {
    this.schema.dropTable('payout_lines')
    this.schema.dropTable('payouts')
    this.schema.dropTable('disputes')
    this.schema.raw(
      'DROP TABLE ledger_folds; DROP TABLE ledger_balances; DROP TABLE ledger_entries'
    )
    this.schema.raw(
      'DROP FUNCTION ledger_entries_balanced(); DROP FUNCTION ledger_entries_append_only()'
    )
    this.schema.dropTable('settlement_policies')
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_settling_index')
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_payable_index')
    this.schema.alterTable('lead_facts', (table) => {
      table.dropColumn('settles_at')
      table.dropColumn('settlement')
      table.dropColumn('payout_id')
    })
    this.schema.alterTable('routing_rules', (table) => table.dropColumn('return_window_hours'))
    this.schema.alterTable('buyers', (table) => table.dropColumn('return_window_hours'))
  }
}
