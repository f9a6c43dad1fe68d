import { inject } from '@adonisjs/core'
import { errors as limiterErrors } from '@adonisjs/limiter'
import type { LimiterConsumptionOptions } from '@adonisjs/limiter/types'
import { appUrl } from '#config/app'
import User from '#models/user'
import { principalForUser } from '#auth/portal_principal'
import AccessLogService from '#services/access/access_log_service'
import {
  findToken,
  issueToken,
  spendTokens,
  type TokenUnavailable,
} from '#services/access/account_tokens'
import { withLimiter } from '#services/access/limiter_store'
import { digestOf } from '#services/access/secret_token'
import UserSessionService from '#services/access/user_session_service'
import { brandForPublisher } from '#services/catalogue/branding_service'
import { transaction } from '#services/sql/transaction'
import { sendBranded } from '#mails/branded_mail'

export const RESET_VALID_FOR = { minutes: 60 }

/**
 * Reset requests: a few per address (whoever asks), more per network address
 * (one office shares one), counted whether or not the address has an account.
 */
export const RESET_THROTTLES = {
  address: { requests: 3, duration: '1 hour' },
  ip: { requests: 20, duration: '1 hour' },
} satisfies Record<string, LimiterConsumptionOptions>

/** Guessing the current password when changing it: as many tries as signing in gets. */
const CHANGE_THROTTLE = { requests: 5, duration: '15 minutes', blockDuration: '15 minutes' }

/** The limiter keys, so an operator (or a test) can lift a throttle. Addresses are hashed. */
export const throttleKeys = {
  resetByAddress: (address: string) => `password-reset:address:${digestOf(normalise(address))}`,
  resetByIp: (ip: string) => `password-reset:ip:${ip}`,
  change: (userId: string) => `password-change:${userId}`,
}

export type ResetOutcome = { state: 'reset'; user: User } | { state: TokenUnavailable }
export type ChangeOutcome =
  | { state: 'changed'; signedOut: number }
  | { state: 'wrong_password' }
  | { state: 'throttled'; retryAfter: number }

@inject()
export default class PasswordService {
  constructor(
    protected accessLog: AccessLogService,
    protected sessions: UserSessionService
  ) {}

  /**
   * Mails a reset link when the address belongs to an active user. The
   * caller's answer is the same either way; only a throttle is told (in
   * seconds), and it counts unknown addresses too, so it reveals nothing.
   */
  async requestReset(email: string, ip: string): Promise<{ retryAfter?: number }> {
    const address = normalise(email)
    for (const [key, options] of [
      [throttleKeys.resetByIp(ip), RESET_THROTTLES.ip],
      [throttleKeys.resetByAddress(address), RESET_THROTTLES.address],
    ] as const) {
      const retryAfter = await consumeOrWait(key, options)
      if (retryAfter !== undefined) return { retryAfter }
    }

    const user = await User.findBy('email', address)
    if (!user || user.disabledAt) return {}
    const url = await transaction(async (trx) => {
      const { token, row } = await issueToken(trx, user, 'password_reset', RESET_VALID_FOR)
      // Whoever asked is unknown: anyone may type an address.
      await this.accessLog.record(
        'anonymous',
        'user.password_reset_requested',
        { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
        { details: { token_id: row.id }, trx }
      )
      return `${appUrl}/reset-password/${token}`
    })
    // Not awaited: an answer that waited for the mail server would tell which addresses exist.
    void this.sendReset(user, url)
    return {}
  }

  findReset(token: string) {
    return findToken(token, 'password_reset')
  }

  /** Sets the new password, spends the link and ends every session of the user. */
  async reset(token: string, password: string): Promise<ResetOutcome> {
    return transaction(async (trx) => {
      const found = await findToken(token, 'password_reset', trx)
      if (found.state !== 'valid') return found
      const { user } = found
      user.useTransaction(trx)
      user.password = password
      await user.save()
      await spendTokens(trx, user.id)
      await this.sessions.revokeAll(user, 'password_reset', trx)
      await this.accessLog.record(
        principalForUser(user).actor,
        'user.password_reset',
        { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
        { details: { token_id: found.token.id }, trx }
      )
      return { state: 'reset' as const, user }
    })
  }

  /**
   * A signed-in user changes its own password: the current one first, then
   * the new one; every other session of the user ends.
   */
  async change(
    user: User,
    input: { current_password: string; password: string },
    sessionId: string
  ): Promise<ChangeOutcome> {
    const [throttled, verified] = await withLimiter(CHANGE_THROTTLE, (counted) =>
      counted.penalize(throttleKeys.change(user.id), async () => {
        if (!(await user.verifyPassword(input.current_password))) throw new WrongPassword()
        return true
      })
    ).catch((error) => {
      if (error instanceof WrongPassword) return [null, false] as const
      throw error
    })
    if (throttled) return { state: 'throttled', retryAfter: throttled.response.availableIn }
    if (!verified) return { state: 'wrong_password' }

    return transaction(async (trx) => {
      user.useTransaction(trx)
      user.password = input.password
      await user.save()
      await spendTokens(trx, user.id)
      const signedOut = await this.sessions.revokeOthers(user, sessionId, 'password_changed', trx)
      await this.accessLog.record(
        principalForUser(user).actor,
        'user.password_changed',
        { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
        { details: { sessions_ended: signedOut }, trx }
      )
      return { state: 'changed' as const, signedOut }
    })
  }

  protected async sendReset(user: User, url: string) {
    const brand = await brandForPublisher(user.publisherId)
    return sendBranded(
      brand,
      {
        to: user.email,
        subject: `Reset your ${brand.name} password`,
        heading: 'Reset your password',
        paragraphs: [
          `Someone asked to reset the password of your ${brand.name} account.`,
          'If it was you, choose a new password with the link below. If it was not, ignore this e-mail: your password stays as it is.',
        ],
        action: { label: 'Choose a new password', url },
        footer: [
          `The link works once, for ${RESET_VALID_FOR.minutes} minutes. Choosing a new password signs you out everywhere.`,
        ],
      },
      { user_id: user.id, mail: 'password_reset' }
    )
  }
}

class WrongPassword extends Error {}

function normalise(email: string) {
  return email.trim().toLowerCase()
}

/** Seconds to wait when the limit is spent, otherwise nothing (and one request is counted). */
async function consumeOrWait(key: string, options: LimiterConsumptionOptions) {
  try {
    await withLimiter(options, (counted) => counted.consume(key))
    return undefined
  } catch (error) {
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) return error.response.availableIn
    throw error
  }
}
