import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/**
 * Every offer of a lead to a buyer (DESIGN §14): a post (and, for ping-post, a ping) with its
 * outcome, timing and what the buyer's system said. What a buyer answers may repeat the
 * consumer's details, so attempts live in the publisher's schema (personal tier) under the
 * retention of webhook payloads; `outcome` is null while the post is in flight, and `caps`
 * holds the cap units it reserved, given back if the buyer does not take the lead.
 */
export default async function up(trx: TransactionClientContract) {
  await trx.schema.createTable('sale_attempts', (table) => {
    table.uuid('id').primary()
    table.uuid('lead_id').notNullable()
    table.uuid('routing_rule_id').nullable()
    table.uuid('buyer_id').notNullable()
    table.uuid('destination_id').nullable()
    table.string('destination_kind', 8).notNullable()
    table.string('kind', 4).notNullable()
    table.string('outcome', 10).nullable()
    /** A stable code (`http_503`, `timeout`, `cap_reached`…) or the buyer's own reason. */
    table.string('reason', 200).nullable()
    table.integer('price_cents').nullable()
    table.integer('payout_cents').nullable()
    table.string('currency', 3).nullable()
    table.integer('bid_cents').nullable()
    /** A price the buyer's answer named (its `price_path`), beside the price the rule sells at. */
    table.integer('answered_price_cents').nullable()
    table.string('buyer_lead_id', 200).nullable()
    table.integer('http_status').nullable()
    table.boolean('exclusive').notNullable().defaultTo(true)
    table.jsonb('caps').notNullable().defaultTo('[]')
    table.jsonb('request').nullable()
    table.text('response_excerpt').nullable()
    table.timestamp('started_at', { useTz: true }).notNullable()
    table.integer('duration_ms').nullable()
    table.index(['lead_id', 'started_at'])
  })
}
