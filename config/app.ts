import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/core/http'

export const appKey = env.get('APP_KEY')

export const appUrl = env.get('APP_URL') ?? `http://localhost:${env.get('PORT') ?? 3333}`

export const http = defineConfig({
  generateRequestId: true,
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
