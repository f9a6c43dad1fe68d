import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { appUrl } from '#config/app'
import User from '#models/user'
import type Principal from '#auth/principal'
import { principalForUser } from '#auth/portal_principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import {
  findToken,
  hasOpenInvitation,
  issueToken,
  spendTokens,
  type TokenUnavailable,
} from '#services/access/account_tokens'
import { INVITATION_VALID_FOR } from '#services/access/invitation_service'
import { brandForPublisher } from '#services/catalogue/branding_service'
import { transaction } from '#services/sql/transaction'
import { sendBranded } from '#mails/branded_mail'

export type UserInvitationAcceptance =
  { state: 'accepted'; user: User } | { state: TokenUnavailable }

/**
 * A user created without a password is invited by e-mail to choose one
 * (`/welcome/<token>`); the operator, or the publisher that manages the user,
 * can send a fresh link while it has not been used.
 */
@inject()
export default class UserInvitationService {
  constructor(protected accessLog: AccessLogService) {}

  async issue(trx: TransactionClientContract, user: User) {
    const { token, row } = await issueToken(trx, user, 'invitation', INVITATION_VALID_FOR)
    return { id: row.id, expiresAt: row.expiresAt, url: `${appUrl}/welcome/${token}` }
  }

  async resend(principal: Principal, user: User) {
    const issued = await transaction(async (trx) => {
      // Serialises resends and acceptance for one user.
      await User.query({ client: trx }).where('id', user.id).forUpdate().firstOrFail()
      if (!(await hasOpenInvitation(trx, user.id))) {
        throw ApiProblem.conflict(
          'invitation_accepted',
          'This user has already chosen a password; there is no invitation to resend.'
        )
      }
      const invitation = await this.issue(trx, user)
      await this.accessLog.record(
        principal.actor,
        'user.invitation_resent',
        { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
        { details: { invitation_id: invitation.id }, trx }
      )
      return invitation
    })
    const sent = await this.send(user, issued.url)
    return { id: issued.id, expiresAt: issued.expiresAt, sent }
  }

  find(token: string) {
    return findToken(token, 'invitation')
  }

  /** Sets the user's first password and spends the link, all or nothing. */
  async accept(token: string, password: string): Promise<UserInvitationAcceptance> {
    return transaction(async (trx) => {
      const found = await findToken(token, 'invitation', trx)
      if (found.state !== 'valid') return found
      const { user } = found
      user.useTransaction(trx)
      user.password = password
      await user.save()
      await spendTokens(trx, user.id)
      await this.accessLog.record(
        principalForUser(user).actor,
        'user.invitation_accepted',
        { type: 'user', id: user.id, publisherId: user.publisherId, buyerId: user.buyerId },
        { details: { invitation_id: found.token.id }, trx }
      )
      return { state: 'accepted' as const, user }
    })
  }

  /** Sent after the commit, in the brand of the user's label (its publisher's), if any. */
  async send(user: User, url: string) {
    const brand = await brandForPublisher(user.publisherId)
    return sendBranded(
      brand,
      {
        to: user.email,
        subject: `Your ${brand.name} account is ready`,
        heading: user.fullName ? `Hello ${user.fullName},` : 'Hello,',
        paragraphs: [
          `An account on ${brand.name} has been created for you.`,
          'Choose your password to open the portal.',
        ],
        action: { label: 'Choose your password', url },
        footer: [`The link is valid for ${INVITATION_VALID_FOR.days} days.`],
      },
      { user_id: user.id, mail: 'user_invitation' }
    )
  }
}
