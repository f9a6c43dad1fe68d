import { SMTPServer } from 'smtp-server'
import env from '#start/env'

export type ReceivedMail = { from: string; to: string[]; raw: string }

/** A real SMTP server on the port the test environment sends to. */
export const mailbox: ReceivedMail[] = []
let server: SMTPServer | undefined

export async function startMailbox() {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk) => (raw += chunk.toString()))
      stream.on('end', () => {
        mailbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
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
