import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { appUrl } from '#config/app'
import Publisher from '#models/publisher'
import PublisherInvitation from '#models/publisher_invitation'
import User from '#models/user'
import type Principal from '#auth/principal'
import type { Permission } from '#auth/principal'
import { principalForUser } from '#auth/portal_principal'
import AccessLogService from '#services/access/access_log_service'
import { transaction } from '#services/sql/transaction'
import { digestOf, newSecret } from '#services/access/secret_token'
import { brandForPublisher } from '#services/catalogue/branding_service'
import ApiProblem from '#exceptions/api_problem'
import { sendBranded } from '#mails/branded_mail'

/** How long an invitation link works, for a publisher's first user and any other user alike. */
export const INVITATION_VALID_FOR = { days: 14 }
const TOKEN_PREFIX = 'inv_'
const TOKEN_SHAPE = /^inv_[A-Za-z0-9_-]{43}$/

/** The first user of a publisher may deliver and read its reports; the operator narrows this later. */
const FIRST_USER_PERMISSIONS: Permission[] = ['read', 'submit']

/** Why an invitation link cannot be used. */
export type InvitationUnavailable = 'unknown' | 'expired' | 'accepted' | 'email_taken'

export type InvitationLookup =
  | { state: 'pending'; invitation: PublisherInvitation; publisher: Publisher }
  | { state: InvitationUnavailable }

export type InvitationAcceptance =
  { state: 'created'; user: User; publisher: Publisher } | { state: InvitationUnavailable }

/** The operator invites a publisher by e-mail; the link lets its first user set a password. */
@inject()
export default class InvitationService {
  constructor(protected accessLog: AccessLogService) {}

  /** The token travels only in the link; the database keeps its digest. */
  async create(trx: TransactionClientContract, publisher: Publisher) {
    const token = newSecret(TOKEN_PREFIX)
    const invitation = await PublisherInvitation.create(
      {
        publisherId: publisher.id,
        email: publisher.contactEmail,
        tokenHash: digestOf(token),
        expiresAt: DateTime.utc().plus(INVITATION_VALID_FOR),
        acceptedAt: null,
      },
      { client: trx }
    )
    return { invitation, token, url: `${appUrl}/invitations/${token}` }
  }

  async find(token: string, trx?: TransactionClientContract): Promise<InvitationLookup> {
    if (!TOKEN_SHAPE.test(token)) return { state: 'unknown' }
    const query = PublisherInvitation.query({ client: trx }).where('token_hash', digestOf(token))
    // Two clicks on the same link must not create two users.
    if (trx) query.forUpdate()
    const invitation = await query.first()
    if (!invitation) return { state: 'unknown' }
    if (invitation.acceptedAt) return { state: 'accepted' }
    if (invitation.expiresAt <= DateTime.utc()) return { state: 'expired' }
    const publisher = await Publisher.findOrFail(invitation.publisherId, { client: trx })
    return { state: 'pending', invitation, publisher }
  }

  /**
   * Creates the publisher's first user with the invited address, spends the
   * invitation and logs the grant, all or nothing.
   */
  async accept(token: string, input: { password: string }): Promise<InvitationAcceptance> {
    return transaction(async (trx) => {
      const found = await this.find(token, trx)
      if (found.state !== 'pending') return found
      const { invitation, publisher } = found

      const email = invitation.email.trim().toLowerCase()
      // Serialises acceptances for one address, so the unique index is never the one to say no.
      await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [`user-email:${email}`])
      if (await User.query({ client: trx }).where('email', email).first())
        return { state: 'email_taken' as const }

      const user = await User.create(
        {
          email,
          password: input.password,
          fullName: null,
          role: 'publisher_user',
          publisherId: publisher.id,
          buyerId: null,
          permissions: FIRST_USER_PERMISSIONS,
        },
        { client: trx }
      )
      invitation.acceptedAt = DateTime.utc()
      await invitation.useTransaction(trx).save()
      await this.accessLog.record(
        principalForUser(user).actor,
        'user.created',
        { type: 'user', id: user.id, publisherId: publisher.id },
        {
          details: { role: user.role, permissions: user.permissions, invitation_id: invitation.id },
          trx,
        }
      )
      return { state: 'created' as const, user, publisher }
    })
  }

  /**
   * Issues a new link to a publisher whose first user has not accepted yet:
   * the earlier links stop working, the new one runs its full term, and the
   * mail goes out after the commit.
   */
  async resend(principal: Principal, publisher: Publisher) {
    const issued = await transaction(async (trx) => {
      // Serialises resends and acceptance for one publisher.
      await Publisher.query({ client: trx }).where('id', publisher.id).forUpdate().firstOrFail()
      const accepted = await PublisherInvitation.query({ client: trx })
        .where('publisher_id', publisher.id)
        .whereNotNull('accepted_at')
        .first()
      if (accepted) {
        throw ApiProblem.conflict(
          'invitation_accepted',
          'This publisher has accepted its invitation; there is nothing to resend.'
        )
      }
      const now = DateTime.utc()
      await PublisherInvitation.query({ client: trx })
        .where('publisher_id', publisher.id)
        .whereNull('accepted_at')
        .where('expires_at', '>', now.toSQL())
        .update({ expires_at: now.toSQL() })
      const created = await this.create(trx, publisher)
      await this.accessLog.record(
        principal.actor,
        'publisher.invitation_resent',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        { details: { invitation_id: created.invitation.id }, trx }
      )
      return created
    })
    const sent = await this.send(publisher, issued.url)
    return { id: issued.invitation.id, expiresAt: issued.invitation.expiresAt, sent }
  }

  /** Sent after the commit, in the publisher's label's brand; says whether it went out. */
  async send(publisher: Publisher, url: string) {
    const brand = await brandForPublisher(publisher.id)
    return sendBranded(
      brand,
      {
        to: publisher.contactEmail,
        subject: `You are invited to deliver leads as ${publisher.name}`,
        heading: `Hello ${publisher.name},`,
        paragraphs: [
          `You have been invited to deliver leads through ${brand.name}.`,
          'Accept the invitation to choose your password and your delivery method.',
        ],
        action: { label: 'Accept the invitation', url },
        footer: [`The link is valid for ${INVITATION_VALID_FOR.days} days.`],
      },
      { publisher_id: publisher.id, mail: 'publisher_invitation' }
    )
  }
}
