import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import DatabaseSetupService from '#services/database_setup_service'
import ServiceCheckService, { ServiceUnavailable } from '#services/service_check_service'
import { startMailbox, stopMailbox } from '#tests/support/mailbox'

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

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
    return suite.setup(() => testUtils.httpServer().start())
  }
}
