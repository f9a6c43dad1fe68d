import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /** A label manager's label: it sees the reports and leads of that label's publishers only. */
  async up() {
    this.schema.alterTable('users', (table) => {
      table.uuid('label_id').nullable().references('id').inTable('labels')
    })
  }

  async down() {
    this.schema.alterTable('users', (table) => table.dropColumn('label_id'))
  }
}
