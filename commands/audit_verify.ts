import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import AuditVerifierService from '#services/audit/audit_verifier_service'

/**
 * Recomputes the whole audit log; exit code 1 when anything fails to
 * verify, with the first failure named.
 */
export default class AuditVerify extends BaseCommand {
  static commandName = 'audit:verify'
  static description = 'Verify every audit entry, chain, chain head, checkpoint root and signature'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({ description: 'Print the full report as JSON', default: false })
  declare json: boolean

  async run() {
    const report = await new AuditVerifierService().verifyLog()
    this.exitCode = report.valid ? 0 : 1
    if (this.json) {
      console.log(JSON.stringify(report, null, 2))
      return
    }
    const rate = Math.round(report.entries / Math.max(report.duration_ms / 1000, 0.001))
    this.logger.info(
      `${report.entries} entries (${report.sealed} sealed, ${report.unsealed} waiting) of ${report.leads} leads, ` +
        `${report.checkpoints} checkpoints, tree size ${report.tree_size}, in ${report.duration_ms} ms (${rate}/s)`
    )
    if (report.valid) {
      this.logger.success(`the audit log verifies; root ${report.root}`)
      return
    }
    const counts = Object.entries(report.failure_counts).map(
      ([reason, count]) => `${reason}: ${count}`
    )
    this.logger.error(`the audit log does NOT verify (${counts.join(', ')})`)
    this.logger.error(`first failure: ${describe(report.broken_at!)}`)
    for (const failure of report.failures.slice(1, 20))
      this.logger.error(`  then: ${describe(failure)}`)
  }
}

function describe(failure: Record<string, unknown>) {
  const where = ['log_index', 'entry_id', 'lead_id', 'lead_seq', 'checkpoint_size']
    .filter((key) => failure[key] !== undefined && failure[key] !== null)
    .map((key) => `${key}=${failure[key]}`)
  return `${failure.reason} [${where.join(' ')}] ${failure.detail}`
}
