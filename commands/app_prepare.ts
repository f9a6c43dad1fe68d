import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { appUrl } from '#config/app'
import DatabaseSetupService from '#services/platform/database_setup_service'
import db from '@adonisjs/lucid/services/db'
import DemoSeeder from '#database/seeders/demo_seeder'
import ServiceCheckService, { ServiceUnavailable } from '#services/platform/service_check_service'

export default class AppPrepare extends BaseCommand {
  static commandName = 'app:prepare'
  static description =
    'Check Postgres and Redis, create and migrate the database, seed the demo world'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({
    description: 'Seed the demo world (--no-seed to skip)',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare seed: boolean

  async run() {
    try {
      await new ServiceCheckService().assertReachable()
    } catch (error) {
      if (error instanceof ServiceUnavailable) {
        this.logger.error(`Leadgate cannot start:\n\n${error.message}`)
        this.exitCode = 1
        return
      }
      throw error
    }

    const { applied, tenants } = await new DatabaseSetupService().prepare()
    this.logger.info(
      `catalogue migrations applied: ${applied.length}; publisher schemas: ${tenants.total}`
    )
    if (!this.seed) return

    const { login, logins, apiKey } = await new DemoSeeder(db.connection()).seed()
    const sticker = this.ui
      .sticker()
      .add(`Leadgate is ready at ${appUrl}`)
      .add('')
      .add(`Demo logins at ${appUrl}/login (password: ${login.password}):`)
    for (const { portal, email } of logins) sticker.add(`  ${email.padEnd(27)} ${portal}`)
    sticker
      .add('')
      .add(
        apiKey
          ? `Operator API key (shown once): ${apiKey}`
          : 'Operator API key: created on the first run (make another: npm run ace -- operator:create)'
      )
      .add(`API reference:  ${appUrl}/docs`)
      .render()
  }
}
