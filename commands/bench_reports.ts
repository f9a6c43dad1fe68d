import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import services from '#config/services'
import ApiKeyService from '#services/access/api_key_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { measureTriggerCost, seedReportFacts } from '#bench/reports_seed'
import { refusesDatabase } from '#bench/bench_database'

/** Every rollup table: the wide cube's, then the narrow one's. */
const ROLLUP_TABLES = [
  'report_rollups',
  'report_rollup_reasons',
  'report_rollup_latency',
  'report_publisher_rollups',
  'report_publisher_rollup_reasons',
  'report_publisher_rollup_latency',
]

/**
 * Not a test: KPIs grouped by publisher over 90 days beside the previous 90, over 13 months of
 * facts, through the HTTP API of the compiled server (as `npm start` runs it). The facts are
 * seeded by SQL through the real rollup triggers.
 */
export default class BenchReports extends BaseCommand {
  static commandName = 'bench:reports'
  static description = 'Benchmark GET /v1/reports/kpis over 10,000,000 facts'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Facts to seed over 13 months', default: 10_000_000 })
  declare facts: number

  @flags.number({ description: 'Publishers they are spread over', default: 200 })
  declare publishers: number

  @flags.number({ description: 'Requests measured per query', default: 200 })
  declare requests: number

  @flags.number({ description: 'Port of the measured server (must be free)', default: 3467 })
  declare port: number

  @flags.boolean({
    description: 'Keep the facts a previous run seeded: migrate, rebuild the rollups from them',
    default: false,
  })
  declare reuse: boolean

  @flags.boolean({
    description: 'With --reuse: rebuild the rollups (--no-rebuild keeps them)',
    default: true,
  })
  declare rebuild: boolean

  @flags.boolean({
    description: 'Also measure what the rollup triggers add per lead (rolled back)',
    default: true,
  })
  declare triggerCost: boolean

  @flags.boolean({
    description: 'Write a CPU profile of the server to tmp/profile',
    default: false,
  })
  declare profile: boolean

  async run() {
    if (refusesDatabase(this, 'bench:reports')) return
    const before = os.loadavg()
    const settings = { facts: this.facts, publishers: this.publishers, requests: this.requests }
    this.logger.info(`settings: ${JSON.stringify(settings)}`)
    // Reusing, the migrations still run: a changed rollup schema gets its tables.
    await new DatabaseSetupService().prepare({ fresh: !this.reuse })
    this.logger.info('building (node ace build)')
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port: this.port,
      build: true,
      nodeFlags: this.profile
        ? ['--cpu-prof', `--cpu-prof-dir=${this.app.makePath('tmp/profile')}`]
        : [],
      env: { APP_KEY: env.get('APP_KEY').release(), DATABASE_URL: services.databaseUrl.href },
    })
    try {
      let seedSeconds: number | null = null
      let rebuildSeconds: number | null = null
      if (!this.reuse) {
        const started = performance.now()
        await seedReportFacts(this.facts, this.publishers)
        seedSeconds = Math.round((performance.now() - started) / 100) / 10
        this.logger.info(`seeded ${this.facts} facts in ${seedSeconds} s`)
      } else if (this.rebuild) {
        // Set-based (TRUNCATE + INSERT … SELECT per table): minutes, where seeding through the
        // triggers again would take a quarter of an hour.
        const started = performance.now()
        await db.rawQuery('SELECT report_rollups_rebuild()')
        rebuildSeconds = Math.round((performance.now() - started) / 100) / 10
        this.logger.info(`rebuilt the rollups in ${rebuildSeconds} s`)
      }
      // As autovacuum would after a bulk load: the planner needs the tables' real sizes, and
      // index-only scans the visibility map. Quick when nothing changed.
      for (const table of ['lead_facts', 'report_fact_deltas', ...ROLLUP_TABLES]) {
        await db.rawQuery(`VACUUM ANALYZE ${table}`)
      }
      const facts = await db.rawQuery('SELECT count(*)::int AS n FROM lead_facts')
      const rows: Record<string, unknown> = { lead_facts: facts.rows[0].n }
      for (const table of ROLLUP_TABLES) {
        const result = await db.rawQuery(
          `SELECT grain, count(*)::int AS n, pg_total_relation_size(?::regclass) AS bytes
             FROM ${table} GROUP BY 1`,
          [table]
        )
        rows[table] = Object.fromEntries(result.rows.map((r: any) => [r.grain, r.n]))
        rows[`${table}_mb`] = Math.round(Number(result.rows[0]?.bytes ?? 0) / 2 ** 20)
      }
      const apiKeys = await this.app.container.make(ApiKeyService)
      const operator = await apiKeys.create(SYSTEM_OPERATOR, {
        name: 'bench-reports-operator',
        permissions: ['read'],
        environment: 'live',
      })
      const day = (daysAgo: number) =>
        new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
      const base = `http://127.0.0.1:${this.port}/v1/reports/kpis?group_by=publisher`
      const queries = {
        whole_days: `${base}&from=${day(90)}&to=${day(0)}`,
        // A label's dashboard in its own zone: local midnights, so whole UTC hours, not days.
        zone_days: `${base}&period=last_90_days&time_zone=Europe%2FBerlin`,
        // Bounds inside an hour: the edges are read from the facts themselves.
        arbitrary_bounds: `${base}&from=${encodeURIComponent(new Date(Date.now() - 90 * 86_400_000 - 1_234_567).toISOString())}&to=${encodeURIComponent(new Date(Date.now() - 754_321).toISOString())}`,
      }
      const measured: Record<string, object> = {}
      for (const [name, url] of Object.entries(queries)) {
        measured[name] = await this.measure(url, operator.secret)
        this.logger.info(`${name}: ${JSON.stringify(measured[name])}`)
      }
      const triggerCost = this.triggerCost ? await measureTriggerCost() : null
      if (triggerCost) this.logger.info(`trigger cost: ${JSON.stringify(triggerCost)}`)
      const summary = {
        date: new Date().toISOString(),
        machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`,
        settings,
        seed_s: seedSeconds,
        rebuild_s: rebuildSeconds,
        rows,
        measured,
        trigger_cost_ms_per_lead: triggerCost,
        load_average: { before, after: os.loadavg() },
      }
      await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
      await writeFile(this.app.makePath('tmp/bench/reports.json'), JSON.stringify(summary, null, 2))
      this.logger.info(JSON.stringify(summary))
      this.logger.info('figures written to tmp/bench/reports.json')
    } finally {
      await stopBenchServer(server)
    }
  }

  /** Sequential requests after a warm-up: the latency of one dashboard's question. */
  async measure(url: string, key: string) {
    const get = async () => {
      const started = performance.now()
      const answer = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
      const body = await answer.json()
      if (answer.status !== 200) throw new Error(`kpis: ${JSON.stringify(body)}`)
      return { ms: performance.now() - started, body }
    }
    for (let i = 0; i < 10; i++) await get()
    const times: number[] = []
    let last: any
    for (let i = 0; i < this.requests; i++) {
      const { ms, body } = await get()
      times.push(ms)
      last = body
    }
    times.sort((a, b) => a - b)
    const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))] * 10) / 10
    return {
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      p99_ms: at(0.99),
      rows: last.rows.length,
      volume: last.totals.volume,
      previous_volume: last.totals.previous.volume,
    }
  }
}
