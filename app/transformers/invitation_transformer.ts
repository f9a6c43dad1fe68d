import type { DateTime } from 'luxon'

/** A re-issued invitation: the link itself travels only in the e-mail. */
export function resentInvitationToJson(resent: { id: string; expiresAt: DateTime; sent: boolean }) {
  return {
    id: resent.id,
    expires_at: resent.expiresAt.toUTC().toISO(),
    email_sent: resent.sent,
  }
}
