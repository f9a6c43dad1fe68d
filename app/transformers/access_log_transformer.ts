import type AccessLogEntry from '#models/access_log_entry'
import type Principal from '#auth/principal'

/**
 * One entry of the access log. Its id is a bigint, sent as a string so no
 * client rounds it. A publisher reads entries about itself only, and never
 * which buyer an entry also concerned.
 */
export function accessLogEntryToJson(entry: AccessLogEntry, principal: Principal) {
  return {
    id: String(entry.id),
    actor: entry.actor,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: entry.subjectId,
    publisher_id: entry.publisherId,
    buyer_id: principal.kind === 'publisher' ? null : entry.buyerId,
    details: entry.details,
    created_at: entry.createdAt.toUTC().toISO(),
  }
}
