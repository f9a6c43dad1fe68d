import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Payout runs (docs/money.md, "Payouts and statements"): one row per label and period a run
 * went through, whether it created payouts or not, so the settlement clock asks one cheap
 * question per tick ("was this label's last period run?") instead of running again.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('payout_runs', (table) => {
      table.uuid('id').primary()
      /** Null: the publishers without a label (the default settlement policy). */
      table.uuid('label_id').nullable().references('id').inTable('labels').onDelete('CASCADE')
      table.date('period_end').notNullable()
      table.string('trigger', 8).notNullable()
      table.string('actor', 80).notNullable()
      table.integer('publishers').notNullable()
      table.integer('payouts').notNullable()
      /** Per currency: payouts created and their total, `[{currency, payouts, amount_cents}]`. */
      table.jsonb('totals').notNullable()
      table.timestamp('started_at', { useTz: true }).notNullable()
      table.timestamp('finished_at', { useTz: true }).notNullable()
      table.index(['period_end', 'label_id'])
    })

    // A run nets clawbacks not yet listed on a payout: these lines are few, the earnings many.
    this.schema.raw(
      `CREATE INDEX payout_lines_netting_index ON payout_lines (payout_id) WHERE kind <> 'earning'`
    )
    // ... and finds a publisher's clawbacks without reading every entry of its payable account.
    this.schema.raw(
      `CREATE INDEX ledger_entries_clawback_index ON ledger_entries (publisher_id) WHERE kind = 'clawback'`
    )
  }

  async down() {
    this.schema.raw('DROP INDEX IF EXISTS ledger_entries_clawback_index')
    this.schema.raw('DROP INDEX IF EXISTS payout_lines_netting_index')
    this.schema.dropTable('payout_runs')
  }
}
