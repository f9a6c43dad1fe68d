import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A publisher's ping (DESIGN §14, "Inbound ping-post"): the offer an auction on its partial lead
 * made, until the lead is posted with the ping's id or the offer expires. No personal data: the
 * fields are kept only as a digest (the posted lead must match it), the bids as ids and cents.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('pings', (table) => {
      table.uuid('id').primary()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.string('environment', 8).notNullable()
      table.string('fields_digest', 64).notNullable()
      table.jsonb('bids').notNullable().defaultTo('[]')
      table.uuid('routing_rule_id').nullable()
      table.integer('price_cents').nullable()
      table.integer('payout_cents').nullable()
      table.string('currency', 3).nullable()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.timestamp('used_at', { useTz: true }).nullable()
      table.uuid('lead_id').nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.index(['publisher_id', 'created_at'])
    })
    /** A lead posted on a ping's offer earns the offered payout, whichever buyer takes it. */
    this.schema.alterTable('lead_facts', (table) => {
      table.integer('offered_payout_cents').nullable()
    })
  }

  async down() {
    this.schema.alterTable('lead_facts', (table) => table.dropColumn('offered_payout_cents'))
    this.schema.dropTable('pings')
  }
}
