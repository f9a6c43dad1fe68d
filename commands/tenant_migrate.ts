import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import DatabaseSetupService from '#services/platform/database_setup_service'

export default class TenantMigrate extends BaseCommand {
  static commandName = 'tenant:migrate'
  static description = 'Bring every publisher schema up to date with database/tenant_migrations'
  static options: CommandOptions = { startApp: true }

  async run() {
    const setup = new DatabaseSetupService()
    const { total, migrated } = await setup.migrateTenants()
    this.logger.success(`${total} publisher schemas checked, ${migrated} migrated`)
  }
}
