import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * The per-lead salt under which the audit schema's consent commitments were
 * made. It is personal-tier data: erasing a lead deletes this row (directly,
 * or with the lead), and the commitments can then no longer be linked to
 * anyone, while the evidence itself stays verifiable as recorded.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('lead_secrets', (table) => {
    table.uuid('lead_id').primary().references('id').inTable('leads').onDelete('CASCADE')
    table.binary('salt').notNullable()
  })
}
