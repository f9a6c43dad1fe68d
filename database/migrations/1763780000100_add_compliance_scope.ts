import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  /**
   * What a compliance officer, or a compliance API key, may audit: some
   * publishers and labels (by slug) and a period, as the operator set it.
   * Null means everything; a compliance key is its own owner type.
   */
  async up() {
    this.schema.alterTable('users', (table) => {
      table.jsonb('scope').nullable()
    })
    this.schema.alterTable('api_keys', (table) => {
      table.jsonb('scope').nullable()
    })
  }

  async down() {
    this.schema.alterTable('api_keys', (table) => {
      table.dropColumn('scope')
    })
    this.schema.alterTable('users', (table) => {
      table.dropColumn('scope')
    })
  }
}
