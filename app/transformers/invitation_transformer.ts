import { BaseTransformer } from '@adonisjs/core/transformers'
import type { DateTime } from 'luxon'
import { isoTime } from '#services/sql/timestamps'

type ResentInvitation = { id: string; expiresAt: DateTime; sent: boolean }

/** A re-issued invitation: the link itself travels only in the e-mail. */
export default class InvitationTransformer extends BaseTransformer<ResentInvitation> {
  toObject() {
    return {
      id: this.resource.id,
      expires_at: isoTime(this.resource.expiresAt),
      email_sent: this.resource.sent,
    }
  }
}
