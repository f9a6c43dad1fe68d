import { BaseSchema } from '@adonisjs/lucid/schema'
import { FOLD_EVERY, triggerFunctionsSql } from './1763780000700_pack_report_rollup_counts.js'

/**
 * The writers stop folding the rollup log every 256th statement (docs/reports.md, "Rollups"):
 * the worker's rollup folder (`reports/rollup_folder.ts`) folds it every few seconds in a
 * transaction of its own. A fold took ~300 ms at 300 leads/s, inside whichever writer's
 * statement drew the 256th number: a routing group's, which then held its rules' cap counters
 * for those 300 ms while every other group waited on them. A statement of 1,000 facts or more
 * still folds at once, so a bulk change never leaves the readers a large log.
 */
export default class extends BaseSchema {
  async up() {
    for (const sql of triggerFunctionsSql(null)) this.schema.raw(sql)
    this.schema.raw('DROP SEQUENCE report_rollups_fold_seq')
  }

  async down() {
    this.schema.raw('CREATE SEQUENCE report_rollups_fold_seq')
    for (const sql of triggerFunctionsSql(FOLD_EVERY)) this.schema.raw(sql)
  }
}
