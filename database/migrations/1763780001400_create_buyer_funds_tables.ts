import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Buyer funds (DESIGN §16): per buyer and currency, prepaid (a balance) or credit (a limit the
 * balance may go below zero by). `reserved_cents` is what offers in flight hold; the sale never
 * lets balance + credit limit − reserved fall below zero. Top-ups are kept one row each.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('buyer_funds', (table) => {
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers').onDelete('CASCADE')
      table.string('currency', 3).notNullable()
      table.string('mode', 8).notNullable()
      table.bigInteger('balance_cents').notNullable().defaultTo(0)
      table.bigInteger('credit_limit_cents').notNullable().defaultTo(0)
      table.bigInteger('reserved_cents').notNullable().defaultTo(0)
      /** A prepaid buyer's balance after its last top-up: what its 80 % and 100 % alerts count from. */
      table.bigInteger('funded_cents').notNullable().defaultTo(0)
      /** The share of funds used at which `buyer.funds_low` last went out (80 or 100), or null. */
      table.smallint('alerted_percent').nullable()
      /** Sales before this were never paid from these funds: their returns credit nothing here. */
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.primary(['buyer_id', 'currency'])
    })
    this.schema.raw(
      `ALTER TABLE buyer_funds ADD CONSTRAINT buyer_funds_mode CHECK (mode IN ('prepaid', 'credit')),
         ADD CONSTRAINT buyer_funds_reserved CHECK (reserved_cents >= 0),
         ADD CONSTRAINT buyer_funds_limit CHECK (credit_limit_cents >= 0)`
    )
    this.schema.createTable('buyer_top_ups', (table) => {
      table.uuid('id').primary()
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers').onDelete('CASCADE')
      table.string('currency', 3).notNullable()
      table.bigInteger('amount_cents').notNullable()
      table.string('reference', 140).notNullable()
      table.string('recorded_by', 120).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.unique(['buyer_id', 'reference'])
    })
  }

  async down() {
    this.schema.dropTable('buyer_top_ups')
    this.schema.dropTable('buyer_funds')
  }
}
