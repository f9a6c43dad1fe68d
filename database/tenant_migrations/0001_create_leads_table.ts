import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * Runs with `search_path` set to the publisher's schema, so unqualified names
 * land there. The personal tier of a publisher: nothing here is shared.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('leads', (table) => {
    table.uuid('id').primary()
    table.uuid('publisher_id').notNullable()
    table.string('environment', 8).notNullable()
    table.string('channel', 16).notNullable()
    table.string('status', 16).notNullable()
    table.jsonb('contact').notNullable()
    table.jsonb('provenance').notNullable()
    table.jsonb('consent').notNullable()
    table.jsonb('attributes').notNullable().defaultTo('{}')
    table.jsonb('quality_check').notNullable()
    table.jsonb('reasons').notNullable().defaultTo('[]')
    // Normalised keys for the duplicate rule: lower-cased e-mail, E.164 phone.
    table.string('email_key', 254).nullable()
    table.string('phone_key', 20).nullable()
    table.timestamp('created_at', { useTz: true }).notNullable()
    table.timestamp('updated_at', { useTz: true }).notNullable()
    table.index(['status', 'created_at'])
    table.index(['email_key', 'created_at'])
    table.index(['phone_key', 'created_at'])
  })
}
