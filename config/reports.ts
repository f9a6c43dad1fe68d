import env from '#start/env'

const reportsConfig = {
  /**
   * How often the worker folds the rollup log into the rollups (docs/reports.md, "Rollups").
   * Readers add what is not folded yet, so this trades the fold's cost per lead (a longer
   * interval shares more rollup rows between leads) against the rows every read adds.
   */
  foldIntervalMs: env.get('REPORT_FOLD_INTERVAL_MS') ?? 5000,
}

export default reportsConfig
