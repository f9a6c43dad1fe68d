import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * What routing decided for each lead: the rule that sold it (no foreign
     * key: a deleted rule must not erase which rule sold a lead), when, and
     * for an unsold lead why not and when it was last tried.
     */
    this.schema.alterTable('lead_facts', (table) => {
      table.uuid('routing_rule_id').nullable()
      table.timestamp('matched_at', { useTz: true }).nullable()
      table.string('unsold_reason', 32).nullable()
      table.timestamp('routed_at', { useTz: true }).nullable()
      table.index(['routing_rule_id', 'matched_at'])
    })
    // The sweeper's working set: live leads accepted and not yet sold.
    this.schema.raw(
      `CREATE INDEX lead_facts_unsold_index ON lead_facts (created_at)
       WHERE status = 'accepted' AND environment = 'live' AND buyer_id IS NULL`
    )

    /**
     * Matches per capped rule and period ("day:2026-03-29", "month:2026-03",
     * in the rule's time zone). A guarded UPDATE on this row is what keeps a
     * cap exact when many leads reach the rule at once.
     */
    this.schema.createTable('routing_rule_usage', (table) => {
      table
        .uuid('rule_id')
        .notNullable()
        .references('id')
        .inTable('routing_rules')
        .onDelete('CASCADE')
      table.string('period', 24).notNullable()
      table.integer('count').notNullable()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.primary(['rule_id', 'period'])
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable('routing_rule_usage')
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_unsold_index')
    this.schema.alterTable('lead_facts', (table) => {
      table.dropIndex(['routing_rule_id', 'matched_at'])
      table.dropColumn('routing_rule_id')
      table.dropColumn('matched_at')
      table.dropColumn('unsold_reason')
      table.dropColumn('routed_at')
    })
  }
}
