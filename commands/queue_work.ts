import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * The background worker: the webhook relay, sweeper and delivery workers,
 * the routing worker and its sweeper, the upload worker (validation and
 * acceptance) and its sweep, and the clocks (audit sealer, settlement,
 * privacy, report rollup folder), in one process. Run it beside the web
 * server; run several for more throughput. SIGTERM or SIGINT finishes the
 * work in flight, then exits.
 */
export default class QueueWork extends BaseCommand {
  static commandName = 'queue:work'
  static description =
    'Run the webhook, routing, upload, audit, money, privacy and report workers until stopped'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  @flags.number({ description: 'Deliveries in flight at once (default from config/webhooks.ts)' })
  declare concurrency?: number

  async run() {
    // Imported once the app has booted: config files read the environment at import time.
    const { default: webhooksConfig } = await import('#config/webhooks')
    const { WebhookRuntime } = await import('#services/webhooks/runtime')
    const { startSaleWorker } = await import('#services/selling/sale_worker')
    const { startAuditSealer } = await import('#services/audit/sealer_loop')
    const { startUploadWorker } = await import('#services/uploads/upload_worker')
    const { startSettlementClock } = await import('#services/money/settlement_clock')
    const { startPrivacyClock } = await import('#services/privacy/privacy_clock')
    const { startRollupFolder } = await import('#services/reports/rollup_folder')
    const runtime = new WebhookRuntime({ concurrency: this.concurrency })
    await runtime.start()
    const stopRouting = await startSaleWorker()
    const stopUploads = await startUploadWorker()
    const stopSealer = startAuditSealer()
    const stopSettlement = startSettlementClock()
    const stopPrivacy = startPrivacyClock()
    const stopFolder = startRollupFolder()
    this.logger.info(
      `worker running: routing, uploads, audit sealer, settlement clock, privacy clock, rollup folder, webhooks (queue "${webhooksConfig.queue.name}", prefix "${webhooksConfig.queue.prefix}", concurrency ${this.concurrency ?? webhooksConfig.queue.concurrency})`
    )

    let stopping = false
    const stop = async () => {
      if (stopping) return
      stopping = true
      this.logger.info('worker stopping')
      await Promise.all([
        runtime.stop(),
        stopRouting(),
        stopUploads(),
        stopSealer(),
        stopSettlement(),
        stopPrivacy(),
        stopFolder(),
      ])
      await this.terminate()
    }
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
  }
}
