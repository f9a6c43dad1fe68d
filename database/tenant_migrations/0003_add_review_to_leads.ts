import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * The operator's review of a flagged lead: decision, the reviewer's note
 * (free text, so personal tier: it never goes into the audit trail, which
 * records the decision and the reviewer only), who and when.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.alterTable('leads', (table) => {
    table.jsonb('review').nullable()
  })
}
