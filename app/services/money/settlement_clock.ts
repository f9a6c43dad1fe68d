import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { runUnderLease } from '#services/platform/leased_lock'
import moneyConfig from '#config/money'
import AcceptanceService from '#services/money/acceptance_service'
import { enforceDisputeDeadlines } from '#services/money/dispute_service'
import { foldLedger } from '#services/money/ledger'
import { runDuePayouts } from '#services/money/payout_run_service'
import { alertLowFunds } from '#services/money/funds_alerts'
import { startWorkerClock } from '#services/platform/worker_clock'

/**
 * One turn of the settlement clock: every return window that has closed
 * makes its sale final, then the ledger's new entries are folded into the
 * maintained balances. Safe to run twice; the clock runs it every few seconds.
 */
export async function settleOnce(now = new Date()) {
  const acceptance = await app.container.make(AcceptanceService)
  await enforceDisputeDeadlines(now)
  let accepted = 0
  for (;;) {
    const batch = await acceptance.closeWindows(now, moneyConfig.acceptanceBatch)
    accepted += batch
    if (batch < moneyConfig.acceptanceBatch) break
  }
  await runDuePayouts(now)
  await alertLowFunds(now)
  const folded = await foldLedger(db.connection())
  return { accepted, folded }
}

/**
 * Runs the clock inside the worker process. Every worker may start it; a lock lets one turn
 * run at a time across processes and the others skip that turn. Returns a function that stops
 * the clock, waiting for a turn in progress.
 */
export function startSettlementClock(intervalMs = moneyConfig.tickSeconds * 1000) {
  return startWorkerClock(intervalMs, async () => {
    try {
      await runUnderLease('money:settlement-clock', () => settleOnce())
    } catch (error) {
      logger.error({ err: error }, 'settlement clock: turn failed; retrying at the next tick')
    }
  })
}
