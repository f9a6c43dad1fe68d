import type { ReceivedMail } from '#tests/support/mailbox'

export type MailParts = ReceivedMail['parts']

/** The header block and the decoded text and HTML parts of a mail (parsed by mailparser on receipt). */
export function mailParts(mail: ReceivedMail): MailParts {
  return mail.parts
}

/** The link of `path` (e.g. `/reset-password/`) in a mail's text part, and its token. */
export function linkIn(mail: ReceivedMail, path: string) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`https?://[^\\s"<]+${escaped}([A-Za-z0-9_-]+)`).exec(
    mailParts(mail).text
  )
  return match ? { url: match[0], token: match[1] } : undefined
}
