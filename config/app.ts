import env from '#start/env'
import app from '@adonisjs/core/services/app'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { defineConfig } from '@adonisjs/core/http'
import { writeBareProblem } from '#exceptions/bare_problem'
import proxyAddr from 'proxy-addr'

export const appKey = env.get('APP_KEY')

/** proxy-addr's trust function for a comma-separated list (`loopback`, `10.0.0.0/8`); none when empty. */
export function trustedProxies(list: string | undefined) {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries.length ? proxyAddr.compile(entries) : () => false
}

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
   * Only the proxies named in TRUSTED_PROXIES (none by default) may say who
   * the client is: a hosted form's consent IP and an IP allowlist must not
   * come from a forged X-Forwarded-For header.
   */
  trustProxy: trustedProxies(env.get('TRUSTED_PROXIES')),
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
