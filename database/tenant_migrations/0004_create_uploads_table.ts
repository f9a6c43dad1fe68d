import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * A publisher's uploads (CSV, JSON Lines): the file as it was read (name,
 * format, encoding, delimiter, header), the mapping of its columns to lead
 * fields, where validation and acceptance stand, and their counts. Personal
 * tier: the file name and header may say something about the people in it.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('uploads', (table) => {
    table.uuid('id').primary()
    table.uuid('publisher_id').notNullable()
    table.string('environment', 8).notNullable()
    // validating → validated → accepting → accepted
    table.string('status', 16).notNullable()
    table.string('format', 8).notNullable()
    table.text('filename').nullable()
    table.string('encoding', 16).notNullable()
    table.string('delimiter', 4).nullable()
    table.bigInteger('bytes').notNullable()
    // The header (CSV) or the keys found (JSON Lines), in file order.
    table.jsonb('columns').notNullable()
    // What the caller sent as `mapping`, if anything: { "<column>": "<lead field>" | null }.
    table.jsonb('requested_mapping').nullable()
    // Who uploaded (the audit actor) and who asked to accept.
    table.string('created_by', 80).notNullable()
    table.string('accepted_by', 80).nullable()
    table.boolean('include_flagged').notNullable().defaultTo(false)
    table.integer('row_count').notNullable()
    table.integer('validated_rows').notNullable().defaultTo(0)
    table.integer('accepted_rows').notNullable().defaultTo(0)
    table.integer('flagged_rows').notNullable().defaultTo(0)
    table.integer('rejected_rows').notNullable().defaultTo(0)
    table.integer('leads_created').notNullable().defaultTo(0)
    table.timestamp('created_at', { useTz: true }).notNullable()
    table.timestamp('updated_at', { useTz: true }).notNullable()
    table.timestamp('validated_at', { useTz: true }).nullable()
    table.timestamp('accept_requested_at', { useTz: true }).nullable()
    table.timestamp('accepted_at', { useTz: true }).nullable()
    table.index(['status', 'updated_at'])
  })
}
