import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AccessLogEntry from '#models/access_log_entry'
import type Principal from '#auth/principal'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { complianceConditions } from '#services/access/compliance_scope'

export type AccessLogFilters = PageRequest & {
  actor?: string
  action?: string
  subject_type?: string
  subject_id?: string
  publisher_id?: string
  from?: Date
  to?: Date
}

const NO_ID = '00000000-0000-0000-0000-000000000000'

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

  /**
   * The operator reads every entry; compliance every entry within its scope
   * (about its publishers, in its period); a publisher the entries about
   * itself (its users, keys, endpoints, rules and onboarding); anyone else
   * none. Newest first.
   */
  visibleTo(principal: Principal) {
    const query = AccessLogEntry.query()
    if (principal.kind === 'publisher') {
      query.where('publisher_id', principal.publisherId ?? NO_ID)
    } else if (principal.kind === 'compliance') {
      const columns = { publisherId: 'access_log.publisher_id', at: 'access_log.created_at' }
      for (const { sql, values } of complianceConditions(principal.scope, columns)) {
        query.whereRaw(sql, values as never[])
      }
    } else if (!principal.isOperator) {
      query.whereRaw('false')
    }
    return query
  }

  list(principal: Principal, filters: AccessLogFilters) {
    const query = this.visibleTo(principal)
    if (filters.actor) query.where('actor', filters.actor)
    if (filters.action) query.where('action', filters.action)
    if (filters.subject_type) query.where('subject_type', filters.subject_type)
    if (filters.subject_id) query.where('subject_id', filters.subject_id)
    if (filters.publisher_id) query.where('publisher_id', filters.publisher_id)
    if (filters.from) query.where('created_at', '>=', filters.from)
    if (filters.to) query.where('created_at', '<', filters.to)
    return paginate(query, filters, 'id', 'bigint')
  }
}
