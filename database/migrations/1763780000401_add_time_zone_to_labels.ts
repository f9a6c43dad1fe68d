import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /** The IANA zone a label's reports read their days and months in (docs/reports.md). */
  async up() {
    this.schema.alterTable('labels', (table) => {
      table.string('time_zone', 64).notNullable().defaultTo('UTC')
    })
  }

  async down() {
    this.schema.alterTable('labels', (table) => table.dropColumn('time_zone'))
  }
}
