import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * One pass of the retention purge now, or as of another moment (`--as-of`, to see what a
 * label's periods will do), under the same lock as the worker's. Prints the counts.
 */
export default class PrivacyPurge extends BaseCommand {
  static commandName = 'privacy:purge'
  static description = 'Apply every label’s retention periods once (the worker does it on its own)'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'Purge as if it were this ISO date or time (default: now)' })
  declare asOf: string | undefined

  async run() {
    const { purgeUnderLock } = await import('#services/privacy/retention_purge')
    const asOf = this.asOf ? new Date(this.asOf) : new Date()
    if (Number.isNaN(asOf.getTime())) {
      this.logger.error(`--as-of ${this.asOf} is not a date`)
      this.exitCode = 1
      return
    }
    const counts = await purgeUnderLock(asOf)
    if (!counts) {
      this.logger.warning('another purge is running; nothing done')
      return
    }
    console.log(JSON.stringify({ as_of: asOf.toISOString(), ...counts }, null, 2))
  }
}
