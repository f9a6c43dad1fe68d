import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * Where events go. The secret is encrypted with the app key; during a
     * rotation the previous one keeps signing until it expires.
     */
    this.schema.createTable('webhook_endpoints', (table) => {
      table.uuid('id').primary()
      table.string('owner_type', 16).notNullable()
      table.uuid('publisher_id').nullable().references('id').inTable('publishers')
      table.uuid('buyer_id').nullable().references('id').inTable('buyers')
      table.string('environment', 8).notNullable()
      table.string('url', 2048).notNullable()
      table.string('description', 500).nullable()
      table.specificType('events', 'text[]').notNullable()
      table.string('status', 16).notNullable()
      table.boolean('fifo').notNullable().defaultTo(false)
      table.integer('rate_limit_per_second').nullable()
      table.text('secret').notNullable()
      table.text('previous_secret').nullable()
      table.timestamp('previous_secret_expires_at', { useTz: true }).nullable()
      table.string('disabled_reason', 32).nullable()
      table.timestamp('disabled_at', { useTz: true }).nullable()
      /** Start of the current outage: first failure since the last success. */
      table.timestamp('failing_since', { useTz: true }).nullable()
      table.timestamp('failing_warned_at', { useTz: true }).nullable()
      table.timestamp('last_success_at', { useTz: true }).nullable()
      table.timestamp('last_failure_at', { useTz: true }).nullable()
      table.integer('consecutive_failures').notNullable().defaultTo(0)
      /** Circuit breaker: open (status paused) until then; trips count the backoff. */
      table.timestamp('paused_until', { useTz: true }).nullable()
      table.integer('circuit_trips').notNullable().defaultTo(0)
      table.timestamp('circuit_closed_at', { useTz: true }).nullable()
      table.timestamp('last_probe_at', { useTz: true }).nullable()
      table.string('created_by', 100).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['publisher_id'])
      table.index(['buyer_id'])
      table.index(['status'])
    })

    /**
     * One row per event and endpoint, written with the event. Postgres is the
     * truth about what is due; Redis only carries the jobs.
     */
    this.schema.createTable('webhook_deliveries', (table) => {
      table.uuid('id').primary()
      // Erasing an event (retention) takes its deliveries with it.
      table
        .uuid('event_id')
        .notNullable()
        .references('id')
        .inTable('outbox_events')
        .onDelete('CASCADE')
      table
        .uuid('endpoint_id')
        .notNullable()
        .references('id')
        .inTable('webhook_endpoints')
        .onDelete('CASCADE')
      table.string('event_type', 64).notNullable()
      table.timestamp('event_created_at', { useTz: true }).notNullable()
      table.string('environment', 8).notNullable()
      table.string('ordering_key', 100).nullable()
      table.string('status', 16).notNullable()
      table.integer('attempt_count').notNullable().defaultTo(0)
      /** Attempts made before the current run of the schedule (a retry or recovery starts a new run). */
      table.integer('schedule_offset').notNullable().defaultTo(0)
      table.string('next_trigger', 16).notNullable().defaultTo('auto')
      table.timestamp('next_attempt_at', { useTz: true }).nullable()
      /** Set when the job for the next attempt is in Redis. */
      table.timestamp('enqueued_at', { useTz: true }).nullable()
      /** A worker's claim on the attempt in flight. */
      table.timestamp('locked_until', { useTz: true }).nullable()
      table.timestamp('last_attempt_at', { useTz: true }).nullable()
      table.integer('last_status_code').nullable()
      table.string('last_error', 64).nullable()
      table.timestamp('succeeded_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.unique(['event_id', 'endpoint_id'])
      table.index(['endpoint_id', 'id'])
      table.index(['status', 'id'])
    })
    this.schema.raw(`
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
        WHERE enqueued_at IS NULL AND status IN ('pending', 'failed');
      CREATE INDEX webhook_deliveries_enqueued ON webhook_deliveries (next_attempt_at)
        WHERE enqueued_at IS NOT NULL AND status IN ('pending', 'failed');
      CREATE INDEX webhook_deliveries_open_by_key ON webhook_deliveries (endpoint_id, ordering_key, id)
        WHERE status IN ('pending', 'failed');
    `)

    /** Every attempt: trigger, answer, latency, the first 20 KB of the response. */
    this.schema.createTable('webhook_attempts', (table) => {
      table.uuid('id').primary()
      /** Null for a `webhook.ping` probe of a disabled endpoint. */
      table
        .uuid('delivery_id')
        .nullable()
        .references('id')
        .inTable('webhook_deliveries')
        .onDelete('CASCADE')
      table
        .uuid('endpoint_id')
        .notNullable()
        .references('id')
        .inTable('webhook_endpoints')
        .onDelete('CASCADE')
      table.integer('attempt').notNullable()
      table.string('trigger', 16).notNullable()
      table.timestamp('started_at', { useTz: true }).notNullable()
      table.boolean('succeeded').notNullable()
      table.integer('status_code').nullable()
      table.integer('latency_ms').notNullable()
      table.text('response_excerpt').nullable()
      table.string('error', 64).nullable()
      table.string('error_detail', 500).nullable()
      table.unique(['delivery_id', 'attempt'])
      table.index(['endpoint_id', 'started_at'])
    })

    /** Tracked background work: recovering an endpoint's window, bulk retries. */
    this.schema.createTable('webhook_recoveries', (table) => {
      table.uuid('id').primary()
      table.string('kind', 16).notNullable()
      table
        .uuid('endpoint_id')
        .nullable()
        .references('id')
        .inTable('webhook_endpoints')
        .onDelete('CASCADE')
      table.string('owner_type', 16).notNullable()
      table.uuid('publisher_id').nullable()
      table.uuid('buyer_id').nullable()
      table.string('environment', 8).notNullable()
      table.jsonb('filter').notNullable()
      table.string('trigger', 16).notNullable()
      table.string('status', 16).notNullable()
      table.integer('scheduled').notNullable().defaultTo(0)
      table.string('error', 500).nullable()
      table.string('requested_by', 100).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('started_at', { useTz: true }).nullable()
      table.timestamp('completed_at', { useTz: true }).nullable()
      table.index(['status', 'id'])
    })
  }

  async down() {
    this.schema.dropTable('webhook_recoveries')
    this.schema.dropTable('webhook_attempts')
    this.schema.dropTable('webhook_deliveries')
    this.schema.dropTable('webhook_endpoints')
  }
}
