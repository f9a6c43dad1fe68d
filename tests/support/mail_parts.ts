import type { ReceivedMail } from '#tests/support/mailbox'

export type MailParts = { headers: string; text: string; html: string }

/**
 * The header block and the decoded text and HTML parts of a mail the test
 * SMTP server received (nodemailer's multipart/alternative, quoted-printable
 * or base64 parts), enough to assert what a reader sees.
 */
export function mailParts(mail: ReceivedMail): MailParts {
  const [headers, ...rest] = mail.raw.split(/\r?\n\r?\n/)
  const body = rest.join('\r\n\r\n')
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1]
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${headers}\r\n\r\n${body}`]
  const found: MailParts = { headers, text: '', html: '' }
  for (const part of parts) {
    const [partHeaders, ...partBody] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
    const content = decode(partBody.join('\r\n\r\n'), partHeaders)
    if (/content-type:\s*text\/html/i.test(partHeaders)) found.html = content
    else if (/content-type:\s*text\/plain/i.test(partHeaders)) found.text = content
  }
  return found
}

/** The link of `path` (e.g. `/reset-password/`) in a mail's text part, and its token. */
export function linkIn(mail: ReceivedMail, path: string) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`https?://[^\\s"<]+${escaped}([A-Za-z0-9_-]+)`).exec(
    mailParts(mail).text
  )
  return match ? { url: match[0], token: match[1] } : undefined
}

function decode(body: string, headers: string) {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase()
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding !== 'quoted-printable') return body
  const soft = body.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let index = 0; index < soft.length; index++) {
    const hex = soft.slice(index + 1, index + 3)
    if (soft[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      index += 2
    } else {
      bytes.push(...Buffer.from(soft[index], 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}
