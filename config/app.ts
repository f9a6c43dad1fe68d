import env from '#start/env'
import app from '@adonisjs/core/services/app'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { defineConfig } from '@adonisjs/core/http'
import { writeBareProblem } from '#exceptions/bare_problem'

export const appKey = env.get('APP_KEY')

export const appUrl = env.get('APP_URL') ?? `http://localhost:${env.get('PORT') ?? 3333}`

export const http = defineConfig({
  generateRequestId: true,
  // A URL whose percent escapes are not UTF-8 never reaches the router; say so as a problem.
  onBadUrl(_request: IncomingMessage, response: ServerResponse) {
    writeBareProblem(response, {
      status: 400,
      code: 'malformed_url',
      title: 'Bad request',
      detail: 'The URL holds a percent escape that is not valid UTF-8.',
    })
  },
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  /**
   * Trust the first proxy only, so an IP allowlist cannot be bypassed with a
   * forged X-Forwarded-For header from the client itself.
   */
  trustProxy: () => false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
