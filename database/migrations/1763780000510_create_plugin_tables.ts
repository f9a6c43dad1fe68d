import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Integration plugins (docs/plugins.md). An installation delivers through a
 * webhook endpoint of its own, so retries, health, the log and replay are the
 * webhooks'; the endpoint's `plugin` names the adapter that sends instead of
 * a signed POST, and `label_id` keeps it to one label's events.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('webhook_endpoints', (table) => {
      table.uuid('label_id').nullable().references('id').inTable('labels').onDelete('CASCADE')
      table.string('plugin', 64).nullable()
    })

    this.schema.createTable('plugin_installations', (table) => {
      table.uuid('id').primary()
      table.uuid('label_id').notNullable().references('id').inTable('labels').onDelete('CASCADE')
      table.string('plugin', 64).notNullable()
      table.string('environment', 8).notNullable()
      table
        .uuid('endpoint_id')
        .notNullable()
        .references('id')
        .inTable('webhook_endpoints')
        .onDelete('CASCADE')
      table.jsonb('settings').notNullable().defaultTo('{}')
      /** Ciphertext of a JSON object (the app key); never returned. */
      table.text('secrets').nullable()
      table.string('created_by', 100).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.unique(['label_id', 'plugin', 'environment'])
    })

    /** What a plugin wrote back about a lead: the record it made in the remote system. */
    this.schema.createTable('plugin_lead_syncs', (table) => {
      table
        .uuid('installation_id')
        .notNullable()
        .references('id')
        .inTable('plugin_installations')
        .onDelete('CASCADE')
      table.uuid('lead_id').notNullable()
      table.string('plugin', 64).notNullable()
      table.string('external_id', 200).notNullable()
      table.jsonb('details').notNullable().defaultTo('{}')
      table.timestamp('synced_at', { useTz: true }).notNullable()
      table.primary(['installation_id', 'lead_id'])
      table.index(['lead_id'])
    })
  }

  async down() {
    this.schema.dropTable('plugin_lead_syncs')
    this.schema.dropTable('plugin_installations')
    this.schema.alterTable('webhook_endpoints', (table) => {
      table.dropColumn('plugin')
      table.dropColumn('label_id')
    })
  }
}
