import logger from '@adonisjs/core/services/logger'
import auditConfig from '#config/audit'
import AuditSealerService, { type SealResult } from '#services/audit/audit_sealer_service'
import { startWorkerClock } from '#services/platform/worker_clock'

export type AuditSealerOptions = {
  /** Seal at least this often while anything waits (default `audit.seal.intervalMs`). */
  intervalMs?: number
  /** Look at the backlog this often (default `audit.seal.pollMs`). */
  pollMs?: number
  /** Seal at the next poll once this many entries wait (default `audit.seal.burstEntries`). */
  burstEntries?: number
  sealer?: AuditSealerService
  onSeal?: (result: SealResult) => void
}

/**
 * Runs the sealer inside the worker process: every few seconds, and at once
 * after a burst. Several workers may run it; the advisory
 * lock lets one seal at a time and the others skip. Returns a function that
 * stops the loop, waiting for a seal in progress.
 */
export function startAuditSealer(options: AuditSealerOptions = {}) {
  const intervalMs = options.intervalMs ?? auditConfig.seal.intervalMs
  const pollMs = options.pollMs ?? auditConfig.seal.pollMs
  const burstEntries = options.burstEntries ?? auditConfig.seal.burstEntries
  const sealer = options.sealer ?? new AuditSealerService()

  let lastSeal = 0

  const tick = async () => {
    try {
      // Every interval regardless of the backlog: an entry whose transaction
      // committed late sits below the newest sealed id, where no count sees it.
      if (Date.now() - lastSeal < intervalMs && (await sealer.backlog()) < burstEntries) return
      const result = await sealer.sealAll()
      lastSeal = Date.now()
      if (result.sealed > 0) {
        logger.debug({ sealed: result.sealed, size: result.size_after }, 'audit log sealed')
      }
      options.onSeal?.(result)
    } catch (error) {
      logger.error({ err: error }, 'audit sealer: run failed; retrying at the next poll')
    }
  }

  return startWorkerClock(pollMs, tick)
}
