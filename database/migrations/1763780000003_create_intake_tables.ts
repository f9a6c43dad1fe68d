import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * One row per lead with no personal data: what operator dashboards and
     * routing read across every publisher without entering a tenant schema.
     */
    this.schema.createTable('lead_facts', (table) => {
      table.uuid('lead_id').primary()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.uuid('label_id').nullable()
      table.uuid('buyer_id').nullable()
      table.string('channel', 16).notNullable()
      table.string('environment', 8).notNullable()
      table.string('status', 16).notNullable()
      table.specificType('reason_codes', 'text[]').notNullable().defaultTo('{}')
      table.integer('price_cents').nullable()
      table.integer('payout_cents').nullable()
      table.string('currency', 3).nullable()
      table.integer('processing_ms').nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['publisher_id', 'created_at'])
      table.index(['status', 'created_at'])
      table.index(['buyer_id', 'created_at'])
    })

    /**
     * The outbox: events written in the transaction that caused them. The
     * webhook relay reads from here; Postgres, not Redis, is the truth.
     */
    this.schema.createTable('outbox_events', (table) => {
      table.uuid('id').primary()
      table.string('type', 64).notNullable()
      table.uuid('publisher_id').nullable()
      table.uuid('buyer_id').nullable()
      table.uuid('lead_id').nullable()
      table.string('environment', 8).notNullable()
      table.jsonb('payload').notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('dispatched_at', { useTz: true }).nullable()
      table.index(['lead_id'])
      table.index(['created_at'])
    })

    /** First answer per credential and Idempotency-Key, kept 24 hours. */
    this.schema.createTable('idempotency_keys', (table) => {
      table.string('credential_id', 64).notNullable()
      table.string('key', 255).notNullable()
      table.string('request_digest', 64).notNullable()
      table.integer('response_status').nullable()
      table.jsonb('response_body').nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.primary(['credential_id', 'key'])
      table.index(['created_at'])
    })
  }

  async down() {
    this.schema.dropTable('idempotency_keys')
    this.schema.dropTable('outbox_events')
    this.schema.dropTable('lead_facts')
  }
}
