import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Privacy (docs/privacy.md): a label's retention periods per data category, the data-subject
 * requests (the subject is kept as a keyed digest, never as the e-mail or phone itself), and
 * the purge job's record of what it did (counts, never data).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('retention_policies', (table) => {
      table.uuid('label_id').primary().references('id').inTable('labels').onDelete('CASCADE')
      // Days after a lead's arrival; null keeps that category until erased on request.
      for (const column of RETENTION_COLUMNS) table.integer(column).nullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('privacy_requests', (table) => {
      table.uuid('id').primary()
      table.string('kind', 8).notNullable()
      // pending → running → completed | failed
      table.string('status', 16).notNullable()
      // HMAC of the normalised e-mail and phone: finds earlier requests about the same person.
      table.specificType('subject_digests', 'char(64)[]').notNullable()
      // The subject, encrypted with the app key, only until the request has run.
      table.text('subject_sealed').nullable()
      table.string('requested_by', 100).notNullable()
      // An access request's document (removed when it expires or the subject is erased);
      // an erasure's counts.
      table.jsonb('result').nullable()
      table.string('error', 200).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('completed_at', { useTz: true }).nullable()
      table.timestamp('result_expires_at', { useTz: true }).nullable()
      table.index(['status', 'created_at'])
    })

    this.schema.createTable('purge_runs', (table) => {
      table.uuid('id').primary()
      // The moment the run purged up to (the clock it was given).
      table.timestamp('as_of', { useTz: true }).notNullable()
      table.jsonb('counts').notNullable()
      table.timestamp('started_at', { useTz: true }).notNullable()
      table.timestamp('finished_at', { useTz: true }).nullable()
      table.index(['started_at'])
    })
  }

  async down() {
    this.schema.dropTable('purge_runs')
    this.schema.dropTable('privacy_requests')
    this.schema.dropTable('retention_policies')
  }
}

const RETENTION_COLUMNS = [
  'contact_days',
  'ip_days',
  'attributes_days',
  'uploads_days',
  'webhook_payload_days',
  'access_log_days',
]
