import { DateTime } from 'luxon'
import mail from '@adonisjs/mail/services/main'
import logger from '@adonisjs/core/services/logger'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { appUrl } from '#config/app'
import type Publisher from '#models/publisher'
import PublisherInvitation from '#models/publisher_invitation'
import { digestOf, newSecret } from '#services/secret_token'

const VALID_FOR_DAYS = 14

/** The operator invites a publisher by e-mail; the link lets its first user set a password. */
export default class InvitationService {
  async create(trx: TransactionClientContract, publisher: Publisher) {
    const token = newSecret('inv_')
    const invitation = await PublisherInvitation.create(
      {
        publisherId: publisher.id,
        email: publisher.contactEmail,
        tokenHash: digestOf(token),
        expiresAt: DateTime.utc().plus({ days: VALID_FOR_DAYS }),
        acceptedAt: null,
      },
      { client: trx }
    )
    return { invitation, url: `${appUrl}/invitations/${token}` }
  }

  /**
   * Sent after the commit. A mail server that is down must not undo the
   * publisher: the failure is logged (without the address) and the operator can resend.
   */
  async send(publisher: Publisher, url: string) {
    try {
      await mail.send((message) => {
        message
          .to(publisher.contactEmail)
          .subject(`You are invited to deliver leads as ${publisher.name}`)
          .text(
            [
              `Hello ${publisher.name},`,
              '',
              'You have been invited to deliver leads through Leadgate.',
              `Accept the invitation and choose your delivery method: ${url}`,
              '',
              `The link is valid for ${VALID_FOR_DAYS} days.`,
            ].join('\n')
          )
      })
      return true
    } catch (error) {
      logger.warn({ publisher_id: publisher.id, err: (error as Error).message }, 'invitation e-mail not sent')
      return false
    }
  }
}
