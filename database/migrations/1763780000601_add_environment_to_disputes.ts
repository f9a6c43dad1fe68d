import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A dispute is about a sale of one environment (docs/money.md, "Sandbox"): readers keep a sandbox
 * credential to sandbox disputes and a live one to live ones without joining the lead's facts on
 * every list. Existing disputes take their lead's environment (every one so far is live).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('disputes', (table) => {
      table.string('environment', 8).notNullable().defaultTo('live')
    })
    this.defer(async (db) => {
      await db.rawQuery(
        `UPDATE disputes d SET environment = f.environment
           FROM lead_facts f WHERE f.lead_id = d.lead_id AND f.environment <> d.environment`
      )
    })
  }

  async down() {
    this.schema.alterTable('disputes', (table) => table.dropColumn('environment'))
  }
}
