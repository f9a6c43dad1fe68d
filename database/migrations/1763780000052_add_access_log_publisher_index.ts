import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /** A publisher reads its own access log newest first, a page at a time: one index range per page. */
  async up() {
    this.schema.alterTable('access_log', (table) => {
      table.index(['publisher_id', 'id'], 'access_log_publisher_id_id_index')
    })
  }

  async down() {
    this.schema.alterTable('access_log', (table) => {
      table.dropIndex(['publisher_id', 'id'], 'access_log_publisher_id_id_index')
    })
  }
}
