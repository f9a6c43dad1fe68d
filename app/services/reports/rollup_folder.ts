import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import reportsConfig from '#config/reports'
import { startWorkerClock } from '#services/platform/worker_clock'

/**
 * Folds every committed fact change of the rollup log into the rollups, in a transaction of its
 * own (docs/reports.md, "Rollups"). One fold at a time across processes: a second caller finds
 * the fold's advisory lock taken and leaves the log to the next turn.
 */
export async function foldRollups() {
  // An idle worker's turn costs a look at the log, not the fold statement's plan.
  await db.rawQuery('SELECT report_rollups_fold() WHERE EXISTS (SELECT FROM report_fact_deltas)')
}

/**
 * Runs the fold inside the worker process every `REPORT_FOLD_INTERVAL_MS`, off the writers'
 * path: a fold in a routing group's statement would hold its cap counters while it ran.
 * Returns a function that stops the folder, waiting for a fold in progress.
 */
export function startRollupFolder(intervalMs = reportsConfig.foldIntervalMs) {
  return startWorkerClock(intervalMs, async () => {
    try {
      await foldRollups()
    } catch (error) {
      logger.error({ err: error }, 'rollup folder: fold failed; retrying at the next turn')
    }
  })
}
