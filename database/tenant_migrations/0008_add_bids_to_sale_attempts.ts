import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * Ping-post (DESIGN §14): a ping attempt's bid carries the buyer's own bid id (echoed in the
 * post that follows) and how long the buyer holds it; both belong to one auction.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.alterTable('sale_attempts', (table) => {
    table.uuid('auction_id').nullable()
    table.string('bid_id', 200).nullable()
    table.timestamp('bid_expires_at', { useTz: true }).nullable()
  })
}
