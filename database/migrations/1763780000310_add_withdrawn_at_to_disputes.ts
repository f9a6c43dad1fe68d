import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * When the buyer withdrew a dispute: a withdrawal closes it without a decision, so it has no
 * `decided_at` of its own.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('disputes', (table) => {
      table.timestamp('withdrawn_at', { useTz: true }).nullable()
    })
  }

  async down() {
    this.schema.alterTable('disputes', (table) => table.dropColumn('withdrawn_at'))
  }
}
