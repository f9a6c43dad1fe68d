import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /** The language a label's hosted pages speak to consumers (the publisher writes the field labels). */
    this.schema.alterTable('labels', (table) => {
      table.string('locale', 8).notNullable().defaultTo('en')
    })

    /**
     * Hosted forms. Their definition holds no personal data, so it lives in
     * public beside the publisher; what consumers type goes to the
     * publisher's schema as leads.
     */
    this.schema.createTable('forms', (table) => {
      table.uuid('id').primary()
      table
        .uuid('publisher_id')
        .notNullable()
        .references('id')
        .inTable('publishers')
        .onDelete('CASCADE')
      table.string('slug', 64).notNullable().unique()
      table.string('title', 120).notNullable()
      table.jsonb('fields').notNullable()
      table.uuid('consent_version_id').nullable()
      table.string('thank_you_url', 2000).nullable()
      table.specificType('embed_origins', 'text[]').notNullable().defaultTo('{}')
      table.boolean('active').notNullable().defaultTo(true)
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['publisher_id', 'id'])
    })

    /**
     * Every consent wording a form has shown, append-only: a lead names the
     * version it was given under, and the text stays provable after an edit.
     */
    this.schema.createTable('form_consent_versions', (table) => {
      table.uuid('id').primary()
      table.uuid('form_id').notNullable().references('id').inTable('forms').onDelete('CASCADE')
      table.integer('version').notNullable()
      table.text('text').notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.unique(['form_id', 'version'])
    })
    this.schema.raw(`
      CREATE FUNCTION form_consent_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'form_consent_versions is append-only'; END $$;
      CREATE TRIGGER form_consent_versions_append_only BEFORE UPDATE ON form_consent_versions
        FOR EACH ROW EXECUTE FUNCTION form_consent_versions_append_only();
    `)
    this.schema.alterTable('forms', (table) => {
      table.foreign('consent_version_id').references('id').inTable('form_consent_versions')
    })

    /** The drop-off funnel per form and UTC day: counts only, never who. */
    this.schema.createTable('form_counters', (table) => {
      table.uuid('form_id').notNullable().references('id').inTable('forms').onDelete('CASCADE')
      table.date('day').notNullable()
      table.integer('views').notNullable().defaultTo(0)
      table.integer('starts').notNullable().defaultTo(0)
      table.integer('submissions').notNullable().defaultTo(0)
      table.integer('blocked').notNullable().defaultTo(0)
      table.primary(['form_id', 'day'])
    })
  }

  async down() {
    this.schema.dropTable('form_counters')
    this.schema.alterTable('forms', (table) => table.dropForeign('consent_version_id'))
    this.schema.dropTable('form_consent_versions')
    this.schema.raw('DROP FUNCTION form_consent_versions_append_only()')
    this.schema.dropTable('forms')
    this.schema.alterTable('labels', (table) => table.dropColumn('locale'))
  }
}
