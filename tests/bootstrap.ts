import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import { browserClient } from '@japa/browser-client'
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import DatabaseSetupService from '#services/platform/database_setup_service'
import ServiceCheckService, { ServiceUnavailable } from '#services/platform/service_check_service'
import { createHttpServer } from '#start/http_server'
import { startMailbox, stopMailbox } from '#tests/support/mailbox'
import { markGroupStart } from '#tests/support/db_snapshot'

/**
 * The browser suite drives Debian's Chromium (apt-get install chromium);
 * Playwright never downloads a browser of its own here.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const browser = browserClient({
  runInSuites: ['browser'],
  contextOptions: {
    baseURL: `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 3334}`,
  },
  launcher: (options) => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `The browser tests need Chromium at ${chromiumPath}: apt-get install chromium (or set CHROMIUM_PATH).`
      )
    }
    return chromium.launch({
      ...options,
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  },
})

export const plugins: Config['plugins'] = [assert(), apiClient(), browser, pluginAdonisJS(app)]

/**
 * The suite runs against the real services: it checks they answer, rebuilds
 * the test database from the migrations and starts a real SMTP server.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    async () => {
      try {
        await new ServiceCheckService().assertReachable()
      } catch (error) {
        if (error instanceof ServiceUnavailable) {
          console.error(`\nThe tests need PostgreSQL and Redis.\n\n${error.message}\n`)
          process.exit(1)
        }
        throw error
      }
      await new DatabaseSetupService().prepare({ fresh: true })
    },
    () => startMailbox(),
  ],
  teardown: [() => stopMailbox()],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional'].includes(suite.name)) {
    // A snapshot counts the publisher schemas its own group made (tests/support/db_snapshot.ts).
    suite.onGroup((group) => group.setup(() => markGroupStart()))
    suite.onTest((test) => test.setup(() => markGroupStart()))
    return suite.setup(() => testUtils.httpServer().start(createHttpServer))
  }
}
