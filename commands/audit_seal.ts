import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import AuditSealerService from '#services/audit/audit_sealer_service'

/** One sealing run by hand; the worker does this every few seconds (startAuditSealer). */
export default class AuditSeal extends BaseCommand {
  static commandName = 'audit:seal'
  static description = 'Seal every waiting audit entry into the Merkle tree and sign a checkpoint'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({ description: 'Print the result as JSON', default: false })
  declare json: boolean

  async run() {
    const result = await new AuditSealerService().sealAll()
    if (this.json) {
      console.log(JSON.stringify(result))
    } else if (result.status === 'locked') {
      this.logger.warning('another sealer is running; nothing done')
    } else {
      this.logger.success(
        `sealed ${result.sealed} entries; tree size ${result.size_after}, root ${result.checkpoint?.root}` +
          (result.lagging > 0
            ? `; ${result.lagging} sealed later than the lag bound (audit.sealing_lags)`
            : '')
      )
    }
    if (result.status === 'locked') this.exitCode = 1
  }
}
