import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('labels', (table) => {
      table.uuid('id').primary()
      table.string('slug', 64).notNullable().unique()
      table.string('name', 200).notNullable()
      table.jsonb('branding').notNullable().defaultTo('{}')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('publishers', (table) => {
      table.uuid('id').primary()
      table.string('slug', 64).notNullable().unique()
      table.string('name', 200).notNullable()
      table.string('contact_email', 254).notNullable()
      table.uuid('label_id').nullable().references('id').inTable('labels')
      table.string('country', 2).notNullable().defaultTo('NL')
      table.string('status', 16).notNullable().defaultTo('invited')
      table.specificType('delivery_methods', 'text[]').notNullable().defaultTo('{}')
      table.string('onboarding_step', 32).notNullable().defaultTo('choose_delivery_method')
      table.string('schema_name', 63).notNullable().unique()
      table.jsonb('quality_rules').notNullable().defaultTo('{}')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('buyers', (table) => {
      table.uuid('id').primary()
      table.string('name', 200).notNullable()
      table.string('contact_email', 254).notNullable()
      table.string('status', 16).notNullable().defaultTo('active')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('routing_rules', (table) => {
      table.uuid('id').primary()
      table.uuid('buyer_id').notNullable().references('id').inTable('buyers')
      table.specificType('label_ids', 'uuid[]').notNullable().defaultTo('{}')
      table.specificType('publisher_ids', 'uuid[]').notNullable().defaultTo('{}')
      table.jsonb('criteria').notNullable().defaultTo('[]')
      table.integer('price_cents').notNullable()
      table.integer('payout_cents').notNullable()
      table.string('currency', 3).notNullable()
      table.jsonb('caps').notNullable().defaultTo('{}')
      table.jsonb('schedule').nullable()
      table.integer('priority').notNullable().defaultTo(0)
      table.integer('weight').notNullable().defaultTo(1)
      table.boolean('enabled').notNullable().defaultTo(true)
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['buyer_id'])
    })
  }

  async down() {
    this.schema.dropTable('routing_rules')
    this.schema.dropTable('buyers')
    this.schema.dropTable('publishers')
    this.schema.dropTable('labels')
  }
}
