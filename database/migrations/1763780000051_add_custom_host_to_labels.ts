import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /**
   * A label's own host name (`leads.acme.example`): a request arriving on it
   * is branded with the label. Stored in lower-case ASCII (IDNs as punycode),
   * the form a Host header arrives in, so the unique index compares like with like.
   */
  async up() {
    this.schema.alterTable('labels', (table) => {
      table.string('custom_host', 253).nullable().unique()
    })
  }

  async down() {
    this.schema.alterTable('labels', (table) => {
      table.dropColumn('custom_host')
    })
  }
}
