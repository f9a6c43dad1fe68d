import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AccessLogEntry from '#models/access_log_entry'

export type AccessLogRecord = {
  actor: string
  action: string
  subjectType: string
  subjectId: string
  publisherId?: string | null
  buyerId?: string | null
  details?: Record<string, unknown>
}

/**
 * Who granted, revoked or changed what, and when. Details carry ids,
 * permissions and environments, never secrets or personal data.
 */
export default class AccessLogService {
  async record(entry: AccessLogRecord, trx?: TransactionClientContract) {
    return AccessLogEntry.create(
      {
        actor: entry.actor,
        action: entry.action,
        subjectType: entry.subjectType,
        subjectId: entry.subjectId,
        publisherId: entry.publisherId ?? null,
        buyerId: entry.buyerId ?? null,
        details: entry.details ?? {},
      },
      { client: trx }
    )
  }
}
