import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * What the parties of a dispute write: the buyer's details, the publisher's answer, the
 * operator's note, and the files attached. Free text may name the consumer, so it lives in the
 * publisher's schema (personal tier); the audit trail keeps each file's SHA-256, never its text.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('dispute_messages', (table) => {
    table.uuid('id').primary()
    table.uuid('dispute_id').notNullable()
    table.string('author', 16).notNullable()
    table.string('actor', 80).notNullable()
    table.text('text').nullable()
    table.timestamp('created_at', { useTz: true }).notNullable()
    table.index(['dispute_id', 'created_at'])
  })
  await trx.schema.createTable('dispute_files', (table) => {
    table.uuid('id').primary()
    table.uuid('dispute_id').notNullable()
    table.uuid('message_id').notNullable().references('id').inTable('dispute_messages')
    table.string('filename', 200).notNullable()
    table.string('content_type', 100).notNullable()
    table.integer('size_bytes').notNullable()
    table.string('sha256', 64).notNullable()
    table.binary('content').notNullable()
    table.timestamp('created_at', { useTz: true }).notNullable()
    table.index(['dispute_id'])
  })
}
