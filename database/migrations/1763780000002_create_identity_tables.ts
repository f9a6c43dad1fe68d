import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('users', (table) => {
      table.uuid('id').primary()
      table.string('email', 254).notNullable().unique()
      table.string('password').notNullable()
      table.string('full_name', 200).nullable()
      table.string('role', 32).notNullable()
      table.uuid('publisher_id').nullable().references('id').inTable('publishers')
      table.uuid('buyer_id').nullable().references('id').inTable('buyers')
      table.specificType('permissions', 'text[]').notNullable().defaultTo('{}')
      table.timestamp('disabled_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    /**
     * API keys and OAuth clients share one shape of scope: an owner (operator,
     * one publisher or one buyer), permissions, an environment and an optional
     * IP allowlist. Only a SHA-256 of the secret is kept.
     */
    const credential = (table: any) => {
      table.uuid('id').primary()
      table.string('name', 200).notNullable()
      table.string('owner_type', 16).notNullable()
      table.uuid('publisher_id').nullable().references('id').inTable('publishers')
      table.uuid('buyer_id').nullable().references('id').inTable('buyers')
      table.specificType('permissions', 'text[]').notNullable()
      table.string('environment', 8).notNullable()
      table.specificType('allowed_ips', 'text[]').notNullable().defaultTo('{}')
      table.string('created_by', 100).notNullable()
      table.timestamp('last_used_at', { useTz: true }).nullable()
      table.timestamp('revoked_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['publisher_id'])
      table.index(['buyer_id'])
    }

    this.schema.createTable('api_keys', (table) => {
      credential(table)
      table.string('token_hash', 64).notNullable().unique()
      table.string('hint', 24).notNullable()
    })

    this.schema.createTable('oauth_clients', (table) => {
      credential(table)
      table.string('client_id', 64).notNullable().unique()
      table.string('secret_hash', 64).notNullable()
    })

    this.schema.createTable('oauth_access_tokens', (table) => {
      table.uuid('id').primary()
      table
        .uuid('client_id')
        .notNullable()
        .references('id')
        .inTable('oauth_clients')
        .onDelete('CASCADE')
      table.string('token_hash', 64).notNullable().unique()
      table.specificType('scope', 'text[]').notNullable()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
    })

    /**
     * Every grant, revocation and role change: who, what, when. Holds ids and
     * typed actors only, never secrets or personal data.
     */
    this.schema.createTable('access_log', (table) => {
      table.bigIncrements('id')
      table.string('actor', 100).notNullable()
      table.string('action', 64).notNullable()
      table.string('subject_type', 32).notNullable()
      table.uuid('subject_id').notNullable()
      table.uuid('publisher_id').nullable()
      table.uuid('buyer_id').nullable()
      table.jsonb('details').notNullable().defaultTo('{}')
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.index(['subject_type', 'subject_id'])
    })

    this.schema.createTable('publisher_invitations', (table) => {
      table.uuid('id').primary()
      table.uuid('publisher_id').notNullable().references('id').inTable('publishers')
      table.string('email', 254).notNullable()
      table.string('token_hash', 64).notNullable().unique()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.timestamp('accepted_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    for (const name of [
      'publisher_invitations',
      'access_log',
      'oauth_access_tokens',
      'oauth_clients',
      'api_keys',
      'users',
    ]) {
      this.schema.dropTable(name)
    }
  }
}
