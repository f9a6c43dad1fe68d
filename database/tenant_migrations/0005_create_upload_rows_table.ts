import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * One row per data row of an upload: the cells as read (a list for CSV, the
 * object for JSON Lines), then the outcome validation gave it and, once
 * accepted, the lead it became. The lead and its row's `lead_id` commit in
 * one transaction, so an acceptance that died halfway resumes where the
 * rows say, and never makes a lead twice.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('upload_rows', (table) => {
    table.uuid('upload_id').notNullable().references('id').inTable('uploads').onDelete('CASCADE')
    // 1 for the first data row (the header is not a row).
    table.integer('row_number').notNullable()
    table.jsonb('raw').notNullable()
    // null until validated: accepted | flagged | rejected
    table.string('outcome', 16).nullable()
    table.jsonb('reasons').nullable()
    // The duplicate keys of the row (normalised e-mail, E.164 phone), so a resumed validation
    // still knows which rows of the file came first.
    table.string('email_key', 254).nullable()
    table.string('phone_key', 20).nullable()
    table.uuid('lead_id').nullable()
    table.string('lead_status', 16).nullable()
    table.primary(['upload_id', 'row_number'])
  })
}
