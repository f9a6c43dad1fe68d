import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'

const mailConfig = defineConfig({
  default: 'smtp',
  from: { address: env.get('MAIL_FROM') ?? 'no-reply@leadgate.local', name: 'Leadgate' },
  mailers: {
    smtp: transports.smtp({
      host: env.get('SMTP_HOST') ?? '127.0.0.1',
      port: env.get('SMTP_PORT') ?? 1025,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 3000,
      greetingTimeout: 3000,
    }),
  },
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
