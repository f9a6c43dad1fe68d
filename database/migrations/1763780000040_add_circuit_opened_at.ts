import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /**
   * When the circuit last opened: a failure of an attempt that started
   * before it is a straggler of the outage, not a failed half-open trial,
   * and must not lengthen the pause again.
   */
  async up() {
    this.schema.alterTable('webhook_endpoints', (table) => {
      table.timestamp('circuit_opened_at', { useTz: true }).nullable()
    })
  }

  async down() {
    this.schema.alterTable('webhook_endpoints', (table) => {
      table.dropColumn('circuit_opened_at')
    })
  }
}
