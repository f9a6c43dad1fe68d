import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Fingerprints across publishers (DESIGN §15): keyed digests of each accepted lead's e-mail and
 * phone, never the values, with its publisher and time (its buyers are its sales). They find the
 * same consumer sent by two publishers, and a consumer a buyer bought before; they follow the
 * retention of contact data and go with an erasure.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('lead_fingerprints', (table) => {
      table.uuid('lead_id').notNullable()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.string('environment', 8).notNullable()
      table.string('kind', 5).notNullable()
      table.string('digest', 64).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.primary(['lead_id', 'kind'])
      table.index(['digest', 'environment', 'created_at'])
    })
    /** A buyer never sold the same consumer twice within this many days (null: no such window). */
    this.schema.alterTable('buyers', (table) => {
      table.integer('duplicate_window_days').nullable()
    })
  }

  async down() {
    this.schema.alterTable('buyers', (table) => table.dropColumn('duplicate_window_days'))
    this.schema.dropTable('lead_fingerprints')
  }
}
