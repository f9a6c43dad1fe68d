import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    /**
     * One row per portal sign-in. The session id itself stays in the cookie and
     * Redis; a digest is enough to recognise it, and a leaked table signs nobody in.
     * A revoked row ends its session on the next request (auth middleware).
     */
    this.schema.createTable('user_sessions', (table) => {
      table.uuid('id').primary()
      table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('session_hash', 64).notNullable().unique()
      table.string('user_agent', 120).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('last_seen_at', { useTz: true }).notNullable()
      table.timestamp('revoked_at', { useTz: true }).nullable()
      table.index(['user_id'])
    })

    /**
     * Single-use links that let a user choose a password: a reset asked for by
     * e-mail, or the invitation of a user created without one. Only a SHA-256
     * of the token is kept.
     */
    this.schema.createTable('account_tokens', (table) => {
      table.uuid('id').primary()
      table.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('purpose', 16).notNullable()
      table.string('token_hash', 64).notNullable().unique()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.timestamp('used_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.index(['user_id', 'purpose'])
    })
  }

  async down() {
    this.schema.dropTable('account_tokens')
    this.schema.dropTable('user_sessions')
  }
}
