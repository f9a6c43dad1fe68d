import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import UserSession from '#models/user_session'
import type User from '#models/user'
import { principalForUser } from '#auth/portal_principal'
import AccessLogService from '#services/access/access_log_service'
import { deviceSummary } from '#services/access/device_summary'
import { digestOf } from '#services/access/secret_token'
import { transaction } from '#services/sql/transaction'

/** Last seen is written at most once a minute: every request reads the row, few write it. */
const TOUCH_EVERY = { minutes: 1 }

/** Why sessions were ended, as the access log records it. */
export type RevokeReason =
  'signed_out' | 'signed_out_elsewhere' | 'password_changed' | 'password_reset'

export type SessionView = {
  id: string
  device: string
  created_at: string
  last_seen_at: string
  current: boolean
}

/**
 * The portal sign-ins of each user. A session is known by a digest of its id;
 * a revoked one ends on its next request (the auth middleware asks `isOpen`).
 */
@inject()
export default class UserSessionService {
  constructor(protected accessLog: AccessLogService) {}

  async open(user: User, sessionId: string, userAgent: string | undefined) {
    return transaction(async (trx) => {
      const now = DateTime.utc()
      const session = await UserSession.create(
        {
          userId: user.id,
          sessionHash: digestOf(sessionId),
          userAgent: deviceSummary(userAgent),
          lastSeenAt: now,
          revokedAt: null,
        },
        { client: trx }
      )
      await this.log(user, 'session.opened', { session_id: session.id }, trx)
      return session
    })
  }

  /** False for a session with no row (never opened here) or a revoked one. */
  async isOpen(user: User, sessionId: string) {
    const session = await this.current(user, sessionId)
    if (!session || session.revokedAt) return false
    const due = DateTime.utc().minus(TOUCH_EVERY)
    if (session.lastSeenAt < due) {
      // Conditional, so concurrent requests of one session write it once.
      await UserSession.query()
        .where('id', session.id)
        .where('last_seen_at', '<', due.toSQL()!)
        .update({ last_seen_at: DateTime.utc().toSQL() })
    }
    return true
  }

  /** The user's open sessions, the most recently used first. */
  async list(user: User, sessionId: string): Promise<SessionView[]> {
    const hash = digestOf(sessionId)
    const sessions = await UserSession.query()
      .where('user_id', user.id)
      .whereNull('revoked_at')
      .orderBy('last_seen_at', 'desc')
      .orderBy('id', 'desc')
    return sessions.map((session) => ({
      id: session.id,
      device: session.userAgent,
      created_at: session.createdAt.toUTC().toISO()!,
      last_seen_at: session.lastSeenAt.toUTC().toISO()!,
      current: session.sessionHash === hash,
    }))
  }

  /** Signing out: this session's row ends with it. */
  async close(user: User, sessionId: string) {
    await transaction(async (trx) => {
      const ended = await this.revokeWhere(trx, user, (query) =>
        query.where('session_hash', digestOf(sessionId))
      )
      if (ended.length) await this.log(user, 'session.closed', { session_id: ended[0] }, trx)
    })
  }

  /** Ends one of the user's sessions by its id; false when the user has no such open session. */
  async revoke(user: User, id: string) {
    return transaction(async (trx) => {
      const ended = await this.revokeWhere(trx, user, (query) => query.where('id', id))
      if (ended.length) await this.logRevoked(user, ended, 'signed_out', trx)
      return ended.length > 0
    })
  }

  /** Ends every session of the user but the one making the request; answers how many. */
  async revokeOthers(
    user: User,
    sessionId: string,
    reason: RevokeReason,
    trx?: TransactionClientContract
  ) {
    const work = async (client: TransactionClientContract) => {
      const ended = await this.revokeWhere(client, user, (query) =>
        query.whereNot('session_hash', digestOf(sessionId))
      )
      if (ended.length) await this.logRevoked(user, ended, reason, client)
      return ended.length
    }
    return trx ? work(trx) : transaction(work)
  }

  /** Ends every session of the user (a password reset: whoever held one is out). */
  async revokeAll(user: User, reason: RevokeReason, trx: TransactionClientContract) {
    const ended = await this.revokeWhere(trx, user, (query) => query)
    if (ended.length) await this.logRevoked(user, ended, reason, trx)
    return ended.length
  }

  protected current(user: User, sessionId: string) {
    return UserSession.query()
      .where('session_hash', digestOf(sessionId))
      .where('user_id', user.id)
      .first()
  }

  protected async revokeWhere(
    trx: TransactionClientContract,
    user: User,
    narrow: (query: DatabaseQueryBuilderContract) => unknown
  ) {
    const query = trx.from('user_sessions').where('user_id', user.id).whereNull('revoked_at')
    narrow(query)
    const rows: { id: string }[] = await query
      .update({ revoked_at: DateTime.utc().toSQL() })
      .returning('id')
    return rows.map((row) => row.id)
  }

  protected logRevoked(
    user: User,
    ids: string[],
    reason: RevokeReason,
    trx: TransactionClientContract
  ) {
    return this.log(user, 'session.revoked', { session_ids: ids, reason }, trx)
  }

  protected log(
    user: User,
    action: string,
    details: Record<string, unknown>,
    trx: TransactionClientContract
  ) {
    return this.accessLog.record(
      principalForUser(user).actor,
      action,
      { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
      { details, trx }
    )
  }
}
