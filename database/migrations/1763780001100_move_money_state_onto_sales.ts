import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A sale is the unit of money (docs/money.md, "Sales"): a shared lead is sold to several
 * buyers, each sale with its own buyer's return window, its own dispute and its own line on a
 * payout. What `lead_facts` kept per lead moves onto `sales`: where the sale's money stands
 * (`settlement`: pending → payable → paid_out, or returned), when its window closes
 * (`settles_at`) and the payout that paid it (`payout_id`). `lead_facts` keeps the lead's summary
 * across its sales, for reports and lists, written by the money steps.
 *
 * Every sale so far is the only sale of its lead, so it takes its lead's state. A payout line
 * names the sale it pays or claws back (`sale_id`), and a dispute is open once per lead and
 * buyer: each buyer of a shared lead disputes its own sale.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('sales', (table) => {
      table.string('settlement', 16).notNullable().defaultTo('pending')
      table.timestamp('settles_at', { useTz: true }).nullable()
      table.uuid('payout_id').nullable()
      table.index(['payout_id'])
      // A publisher's sales: its settlement view, the operator's overview, its sales CSV.
      table.index(['publisher_id', 'sold_at'])
    })
    this.schema.raw(`
      UPDATE sales s SET settlement = coalesce(f.settlement, 'pending'),
                         settles_at = coalesce(f.settles_at, s.sold_at), payout_id = f.payout_id
        FROM lead_facts f WHERE f.lead_id = s.lead_id`)
    this.schema.raw(`UPDATE sales SET settles_at = sold_at WHERE settles_at IS NULL`)
    this.schema.raw(`ALTER TABLE sales ALTER COLUMN settles_at SET NOT NULL`)
    this.schema.raw(
      `ALTER TABLE sales ADD CONSTRAINT sales_settlement_check
         CHECK (settlement IN ('pending', 'payable', 'paid_out', 'returned'))`
    )
    // What the return window's clock and a payout run look for, now per sale.
    this.schema.raw(
      `CREATE INDEX sales_settling_index ON sales (settles_at) WHERE settlement = 'pending'`
    )
    this.schema.raw(
      `CREATE INDEX sales_payable_index ON sales (publisher_id) WHERE settlement = 'payable'`
    )
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_settling_index')
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_payable_index')

    this.schema.alterTable('payout_lines', (table) => {
      table.uuid('sale_id').nullable()
    })
    // A line of a lead names the lead's sale; a lead paid before this had one, its first buyer's.
    this.schema.raw(`
      UPDATE payout_lines l SET sale_id = s.id
        FROM sales s JOIN lead_facts f ON f.lead_id = s.lead_id AND f.buyer_id = s.buyer_id
       WHERE l.lead_id IS NOT NULL AND s.lead_id = l.lead_id`)

    this.schema.raw('DROP INDEX IF EXISTS disputes_one_open_per_lead')
    this.schema.raw(
      `CREATE UNIQUE INDEX disputes_one_open_per_sale ON disputes (lead_id, buyer_id)
        WHERE status IN ('open', 'responded')`
    )
  }

  async down() {
    this.schema.raw('DROP INDEX IF EXISTS disputes_one_open_per_sale')
    this.schema.raw(
      `CREATE UNIQUE INDEX disputes_one_open_per_lead ON disputes (lead_id)
        WHERE status IN ('open', 'responded')`
    )
    this.schema.alterTable('payout_lines', (table) => table.dropColumn('sale_id'))
    this.schema.raw(
      `CREATE INDEX lead_facts_settling_index ON lead_facts (settles_at) WHERE settlement = 'pending'`
    )
    this.schema.raw(
      `CREATE INDEX lead_facts_payable_index ON lead_facts (publisher_id) WHERE settlement = 'payable'`
    )
    this.schema.raw('DROP INDEX IF EXISTS sales_settling_index')
    this.schema.raw('DROP INDEX IF EXISTS sales_payable_index')
    this.schema.raw('ALTER TABLE sales DROP CONSTRAINT IF EXISTS sales_settlement_check')
    this.schema.alterTable('sales', (table) => {
      table.dropIndex(['publisher_id', 'sold_at'])
      table.dropIndex(['payout_id'])
      table.dropColumn('settlement')
      table.dropColumn('settles_at')
      table.dropColumn('payout_id')
    })
  }
}
