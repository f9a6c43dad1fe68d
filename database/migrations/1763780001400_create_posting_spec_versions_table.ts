import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Every version of a publisher's posting spec (GET /v1/publishers/{id}/posting-spec): the digest
 * of the document, what it was built from (the rules and the default country, so the next version
 * can say what changed) and the changes in words. Appended, never changed; `announced_at` is when
 * the publisher's users were mailed about it (the first version is not announced).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('posting_spec_versions', (table) => {
      table.uuid('id').primary()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.integer('version').notNullable()
      table.string('digest', 64).notNullable()
      table.jsonb('basis').notNullable()
      table.jsonb('changes').notNullable().defaultTo('[]')
      table.timestamp('announced_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.unique(['publisher_id', 'version'])
    })
  }

  async down() {
    this.schema.dropTable('posting_spec_versions')
  }
}
