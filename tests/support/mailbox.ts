import { SMTPServer } from 'smtp-server'
import { simpleParser } from 'mailparser'
import env from '#start/env'

/** A mail as the server received it, and what a reader sees: its headers, text and HTML parts. */
export type ReceivedMail = {
  from: string
  to: string[]
  raw: string
  parts: { headers: string; text: string; html: string }
}

/** Mail to this domain is refused at RCPT TO. */
export const REFUSING_DOMAIN = 'refused.example'

/** A real SMTP server on the port the test environment sends to. */
export const mailbox: ReceivedMail[] = []
let server: SMTPServer | undefined

export async function startMailbox() {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A domain whose mailboxes refuse mail, as a real server does for an unknown recipient.
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith(`@${REFUSING_DOMAIN}`)) {
        return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }))
      }
      callback()
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk) => (raw += chunk.toString()))
      stream.on('end', async () => {
        // Parsed before the sender hears "250": a test that saw the mail arrive can read it.
        const parsed = await simpleParser(raw)
        mailbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          parts: {
            headers: raw.split(/\r?\n\r?\n/)[0],
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          },
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server!.listen(env.get('SMTP_PORT'), '127.0.0.1', resolve))
}

export async function stopMailbox() {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
}

export function mailTo(address: string) {
  return mailbox.filter((mail) => mail.to.includes(address))
}
