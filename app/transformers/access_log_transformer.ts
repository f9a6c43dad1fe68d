import { BaseTransformer } from '@adonisjs/core/transformers'
import type AccessLogEntry from '#models/access_log_entry'
import type Principal from '#auth/principal'
import { isoTime } from '#services/sql/timestamps'

/**
 * One entry of the access log. Its id is a bigint, sent as a string so no
 * client rounds it. A publisher reads entries about itself only, and never
 * which buyer an entry also concerned.
 */
export default class AccessLogTransformer extends BaseTransformer<AccessLogEntry> {
  constructor(
    entry: AccessLogEntry,
    protected reader: Principal
  ) {
    super(entry)
  }

  toObject() {
    const entry = this.resource
    return {
      id: String(entry.id),
      actor: entry.actor,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      publisher_id: entry.publisherId,
      buyer_id: this.reader.kind === 'publisher' ? null : entry.buyerId,
      details: entry.details,
      created_at: isoTime(entry.createdAt),
    }
  }
}
