import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AccessLogEntry from '#models/access_log_entry'

/** What an entry is about, and whose it is (the owner sees its own entries). */
export type AccessLogSubject = {
  type: string
  id: string
  publisherId?: string | null
  buyerId?: string | null
}

/**
 * Who granted, revoked or changed what, and when. Details carry ids,
 * permissions and environments, never secrets or personal data.
 */
export default class AccessLogService {
  async record(
    actor: string,
    action: string,
    subject: AccessLogSubject,
    options: { details?: Record<string, unknown>; trx?: TransactionClientContract } = {}
  ) {
    return AccessLogEntry.create(
      {
        actor,
        action,
        subjectType: subject.type,
        subjectId: subject.id,
        publisherId: subject.publisherId ?? null,
        buyerId: subject.buyerId ?? null,
        details: options.details ?? {},
      },
      { client: options.trx }
    )
  }
}
