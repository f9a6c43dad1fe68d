import type { BaseCommand } from '@adonisjs/core/ace'
import services from '#config/services'

/**
 * Every benchmark drops and recreates the database it is pointed at: it
 * refuses one whose name does not say "bench" (a development or test
 * database, say), and says how to run it. True when it refused.
 */
export function refusesDatabase(command: BaseCommand, name: string) {
  if (services.databaseName.includes('bench')) return false
  command.logger.error(
    `${name} recreates its database; "${services.databaseName}" is not a bench database. Run it as \`npm run ${name}\`, or set BENCH_DATABASE_URL to a database whose name contains "bench".`
  )
  command.exitCode = 1
  return true
}
