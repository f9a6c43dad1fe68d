import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Calls reported by call-tracking vendors (docs/calls.md). No caller number
 * is kept: it is used to find the lead, then dropped; the lead holds the
 * contact. One row per vendor call id and environment, updated on repeats.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('calls', (table) => {
      table.uuid('id').primary()
      table.string('environment', 8).notNullable()
      table.string('vendor', 16).notNullable()
      table.string('vendor_call_id', 200).notNullable()
      table.uuid('lead_id').nullable()
      table.uuid('publisher_id').nullable().references('id').inTable('publishers')
      /** attached, unmatched (no lead), ambiguous (several leads: never guessed). */
      table.string('status', 16).notNullable()
      table.string('matched_by', 16).nullable()
      table.integer('candidates').notNullable().defaultTo(0)
      table.string('tracking_number', 32).nullable()
      table.timestamp('started_at', { useTz: true }).notNullable()
      table.integer('duration_seconds').nullable()
      table.string('disposition', 100).nullable()
      table.string('recording_url', 2048).nullable()
      table.string('campaign', 200).nullable()
      table.string('reported_by', 100).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.unique(['vendor', 'vendor_call_id', 'environment'])
      table.index(['lead_id'])
    })
  }

  async down() {
    this.schema.dropTable('calls')
  }
}
