import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The sandbox behaves like live (docs/sandbox.md): a routing rule sells leads of one environment,
 * and a payout (and the run that made it) pays one environment's sales. Existing rows are live.
 * The ledger needs no column: a sandbox movement books to `sandbox:`-prefixed accounts.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('routing_rules', (table) => {
      table.string('environment', 8).notNullable().defaultTo('live')
    })
    // The sweeper offers unsold sandbox leads again too: its working set is no longer live only.
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_unsold_index')
    this.schema.raw(
      `CREATE INDEX lead_facts_unsold_index ON lead_facts (created_at)
       WHERE status = 'accepted' AND buyer_id IS NULL`
    )
    this.schema.alterTable('payouts', (table) => {
      table.string('environment', 8).notNullable().defaultTo('live')
      table.dropUnique(['publisher_id', 'period_end', 'currency'])
      table.unique(['publisher_id', 'period_end', 'currency', 'environment'])
    })
    this.schema.alterTable('payout_runs', (table) => {
      table.string('environment', 8).notNullable().defaultTo('live')
    })
  }

  async down() {
    this.schema.alterTable('payout_runs', (table) => table.dropColumn('environment'))
    this.schema.alterTable('payouts', (table) => {
      table.dropUnique(['publisher_id', 'period_end', 'currency', 'environment'])
      table.unique(['publisher_id', 'period_end', 'currency'])
      table.dropColumn('environment')
    })
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_unsold_index')
    this.schema.raw(
      `CREATE INDEX lead_facts_unsold_index ON lead_facts (created_at)
       WHERE status = 'accepted' AND environment = 'live' AND buyer_id IS NULL`
    )
    this.schema.alterTable('routing_rules', (table) => table.dropColumn('environment'))
  }
}
