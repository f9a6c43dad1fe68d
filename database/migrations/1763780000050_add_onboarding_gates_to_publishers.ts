import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /**
   * The onboarding gates: the publisher confirms the exact version of its
   * quality rules (a later change by the operator voids the confirmation),
   * asks to go live, and the operator sets it live. The step is computed
   * from these columns and the publisher's sandbox leads when it is read,
   * so the stored `onboarding_step`, which could not see a sandbox lead
   * arrive, goes.
   */
  async up() {
    this.schema.alterTable('publishers', (table) => {
      table.integer('quality_rules_version').notNullable().defaultTo(0)
      table.integer('rules_confirmed_version').nullable()
      table.timestamp('rules_confirmed_at', { useTz: true }).nullable()
      table.timestamp('go_live_requested_at', { useTz: true }).nullable()
      table.timestamp('went_live_at', { useTz: true }).nullable()
    })
    this.defer(async (db) => {
      // Rules saved before versions existed count as version 1; publishers past onboarding keep it behind them.
      await db.rawQuery(`
        UPDATE publishers SET
          quality_rules_version = CASE
            WHEN quality_rules <> '{}'::jsonb OR onboarding_step = 'go_live' THEN 1 ELSE 0 END,
          went_live_at = CASE WHEN status IN ('live', 'paused') THEN updated_at END
      `)
    })
    this.schema.alterTable('publishers', (table) => {
      table.dropColumn('onboarding_step')
    })
    // Only sandbox rows are indexed: "has this publisher tested yet?" stays one index probe, whatever its live volume.
    this.schema.raw(
      `CREATE INDEX lead_facts_sandbox_publisher_index ON lead_facts (publisher_id) WHERE environment = 'sandbox'`
    )
  }

  async down() {
    this.schema.raw('DROP INDEX IF EXISTS lead_facts_sandbox_publisher_index')
    this.schema.alterTable('publishers', (table) => {
      table.string('onboarding_step', 32).notNullable().defaultTo('choose_delivery_method')
    })
    this.defer(async (db) => {
      await db.rawQuery(`
        UPDATE publishers SET onboarding_step = CASE
          WHEN status IN ('live', 'paused') THEN 'monitor'
          WHEN cardinality(delivery_methods) = 0 THEN 'choose_delivery_method'
          WHEN quality_rules_version > 0 THEN 'go_live'
          ELSE 'set_quality_rules' END
      `)
    })
    this.schema.alterTable('publishers', (table) => {
      table.dropColumns(
        'quality_rules_version',
        'rules_confirmed_version',
        'rules_confirmed_at',
        'go_live_requested_at',
        'went_live_at'
      )
    })
  }
}
