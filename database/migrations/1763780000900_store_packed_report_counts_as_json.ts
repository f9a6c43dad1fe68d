import { BaseSchema } from '@adonisjs/lucid/schema'

/** The packed tables and the column that holds their codes or buckets. */
const PACKED: [table: string, keys: string][] = [
  ['report_rollup_reasons', 'codes'],
  ['report_rollup_latency', 'buckets_ms'],
  ['report_publisher_rollup_reasons', 'codes'],
  ['report_publisher_rollup_latency', 'buckets_ms'],
]

/**
 * Each packed rollup row also keeps its arrays as the JSON the readers ask for
 * (`[keys, counts]`), computed by Postgres whenever the row is written: a 90-day report by
 * publisher sends 280,000–380,000 counts, and formatting them on every read (`array_to_json`)
 * was most of its histogram statement's time (docs/reports.md, "Rollups"). Written once per fold
 * instead. The function is IMMUTABLE, as a generated column requires: integers and reason codes
 * print the same under every setting.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE FUNCTION report_packed_json(keys anyarray, counts integer[]) RETURNS json
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT json_build_array(array_to_json(keys), array_to_json(counts)) $$`)
    for (const [table, keys] of PACKED) {
      this.schema.raw(
        `ALTER TABLE ${table} ADD COLUMN packed json
           GENERATED ALWAYS AS (report_packed_json(${keys}, counts)) STORED`
      )
    }
  }

  async down() {
    for (const [table] of PACKED) this.schema.raw(`ALTER TABLE ${table} DROP COLUMN packed`)
    this.schema.raw('DROP FUNCTION report_packed_json(anyarray, integer[])')
  }
}
