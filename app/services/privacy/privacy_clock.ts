import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { runUnderLease } from '#services/platform/leased_lock'
import privacyConfig from '#config/privacy'
import PrivacyRequestService from '#services/privacy/privacy_request_service'
import { purgeUnderLock } from '#services/privacy/retention_purge'
import { startWorkerClock } from '#services/platform/worker_clock'

/** How often waiting data-subject requests are looked for. */
const REQUEST_TICK_MS = 3_000

/**
 * The worker's privacy duties, as the settlement clock: data-subject requests every few
 * seconds, the retention purge every `PURGE_INTERVAL_SECONDS`. Each duty runs under a lock,
 * so one runner at a time across worker processes; the others skip that turn.
 */
export function startPrivacyClock(purgeEveryMs = privacyConfig.purgeIntervalSeconds * 1000) {
  let lastPurge = 0

  const tick = async () => {
    try {
      const requests = await app.container.make(PrivacyRequestService)
      await runUnderLease('privacy:requests', () => requests.runWaiting())
      if (Date.now() - lastPurge >= purgeEveryMs) {
        lastPurge = Date.now()
        await purgeUnderLock()
      }
    } catch (error) {
      logger.error({ err: error }, 'privacy clock: turn failed; retrying at the next tick')
    }
  }
  return startWorkerClock(REQUEST_TICK_MS, tick)
}
