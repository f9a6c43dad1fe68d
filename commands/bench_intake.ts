import { mkdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import db from '@adonisjs/lucid/services/db'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import env from '#start/env'
import services from '#config/services'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import PublisherService from '#services/catalogue/publisher_service'
import ApiKeyService from '#services/access/api_key_service'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { runLoadGenerator } from '#bench/load_generator'
import { type CpuGroups, benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import { refusesDatabase } from '#bench/bench_database'
import { cpuFigures, runRawSqlLimit } from '#bench/raw_sql_limit'
import { spawnBenchChild } from '#bench/bench_child'
import { startRollupFolder } from '#services/reports/rollup_folder'

const RULES = {
  required_fields: ['contact.email', 'contact.phone'],
  phone: { action: 'reject' },
  email: { action: 'reject' },
  postal_code: { required: false, action: 'reject' },
  consent: { required: true, action: 'reject' },
  duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
}

/**
 * Not a test: measures intake against the machine's raw-SQL limit. Starts the
 * app against the local services, drives POST /v1/leads from a separate
 * process, then runs the pgbench workload of bench/limit (bench/limit/README.md)
 * in the same run.
 */
export default class BenchIntake extends BaseCommand {
  static commandName = 'bench:intake'
  static description = 'Benchmark lead intake (fixed rate and full speed) against the pgbench limit'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Fixed request rate (leads/s) for the latency run', default: 300 })
  declare rate: number

  @flags.number({ description: 'Seconds per measured run', default: 20 })
  declare duration: number

  @flags.number({ description: 'Concurrent connections at full speed', default: 32 })
  declare connections: number

  @flags.number({ description: 'Publishers to spread the load over', default: 4 })
  declare publishers: number

  @flags.string({
    description: 'Measure one step only ("fixed" or "full"), e.g. to profile it alone',
  })
  declare only?: 'fixed' | 'full'

  @flags.boolean({
    description:
      'Then time acceptance → match.found delivery at --rate with 50 buyers and 500 rules (bench:routing); skipped with --only',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare routing: boolean

  @flags.boolean({
    description:
      'Keep the report rollups up to date as npm start and queue:work do (the triggers on lead_facts, the worker folding their log every few seconds); --no-rollups disables both, to measure their share',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare rollups: boolean

  @flags.boolean({
    description: 'Write a CPU profile of the server to tmp/profile',
    default: false,
  })
  declare profile: boolean

  @flags.number({
    description:
      'HTTP worker processes (WEB_CONCURRENCY); on 2 cores shared with Postgres and the load generator, 1 does best',
    default: 1,
  })
  declare workers: number

  @flags.boolean({
    description: 'Measure the compiled build (node ace build) rather than the TypeScript sources',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare build: boolean

  async run() {
    // The benchmark drops and recreates its database: never let it near a real one.
    if (refusesDatabase(this, 'bench:intake')) return
    const port = 3390
    await new DatabaseSetupService().prepare({ fresh: true })
    const publishers = await this.seed()
    this.logger.info(`seeded ${publishers.length} live publishers in ${services.databaseName}`)
    if (!this.rollups) {
      await db.rawQuery(
        `ALTER TABLE lead_facts ${['insert', 'update', 'delete'].map((event) => `DISABLE TRIGGER report_rollups_${event}`).join(', ')}`
      )
      this.logger.info(
        'setting changed from npm start: report rollup triggers on lead_facts disabled, no rollup folder (--no-rollups)'
      )
    }
    if (this.build) this.logger.info('building (node ace build)')
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port,
      build: this.build,
      nodeFlags: this.profile
        ? ['--cpu-prof', `--cpu-prof-dir=${this.app.makePath('tmp/profile')}`]
        : [],
      env: {
        APP_KEY: env.get('APP_KEY').release(),
        DATABASE_URL: services.databaseUrl.href,
        WEB_CONCURRENCY: String(this.profile ? 1 : this.workers),
      },
    })
    // The worker's rollup folder, here rather than in a queue:work process (no routing runs in
    // this benchmark): its Postgres time is counted with the database's. Started once the server
    // is up: a failed build must not leave it running, which would keep this process alive.
    const stopFolder = this.rollups ? startRollupFolder() : async () => {}
    try {
      const baseUrl = `http://127.0.0.1:${port}`
      this.logger.info('warming up (5 s at full speed)')
      await this.load({
        baseUrl,
        publishers,
        steps: [{ name: 'warmup', connections: this.connections, duration: 5 }],
      })
      this.logger.info(
        `measuring: ${this.duration} s at ${this.rate} leads/s, then ${this.duration} s at full speed`
      )
      const cpuGroups = benchCpuGroups(server.pid!)
      const measure = (step: Record<string, unknown>) =>
        this.measured(cpuGroups, { baseUrl, publishers, steps: [step] })
      // Open model: one lead every 1/rate s, timed from when it was due; enough connections that a slow answer never holds the next lead back.
      const fixed =
        this.only === 'full'
          ? null
          : await measure({
              name: 'fixed',
              rate: this.rate,
              connections: Math.max(this.connections, Math.ceil(this.rate / 4)),
              duration: this.duration,
            })
      const full =
        this.only === 'fixed'
          ? null
          : await measure({ name: 'full', connections: this.connections, duration: this.duration })
      await stopBenchServer(server)
      await stopFolder()
      this.logger.info('running the raw-SQL limit (pgbench, 15 s)')
      const limit = await runRawSqlLimit(this.app.appRoot, 'limit')
      const routing = this.routing && !this.only ? await this.routeToBuyers() : null
      await this.report(fixed, full, limit, routing)
    } finally {
      await stopBenchServer(server)
      await stopFolder()
    }
  }

  async seed() {
    const publisherService = await this.app.container.make(PublisherService)
    const apiKeys = await this.app.container.make(ApiKeyService)
    const seeded = []
    for (let i = 0; i < this.publishers; i++) {
      const publisher = await publisherService.create(SYSTEM_OPERATOR, {
        slug: `bench-${i}`,
        name: `Bench publisher ${i}`,
        contact_email: `bench-${i}@bench.example`,
        country: 'NL',
      })
      publisher.merge({ status: 'live', deliveryMethods: ['api'], qualityRules: RULES as any })
      await publisher.save()
      const { secret } = await apiKeys.create(SYSTEM_OPERATOR, {
        name: 'bench',
        publisher_id: publisher.id,
        permissions: ['read', 'submit'],
        environment: 'live',
      })
      seeded.push({ slug: publisher.slug, key: secret })
    }
    return seeded
  }

  /** One load step, with the CPU each process group spent on it per answered lead. */
  async measured(groups: CpuGroups, plan: Record<string, unknown>) {
    const before = cpuSnapshot(groups)
    const [step] = await this.load(plan)
    // The load generator has exited by now: it reports its own CPU time.
    const spent = { ...cpuSpent(before, cpuSnapshot(groups)), load_generator: step.cpu_ms }
    const answered = Object.values(step.statuses as Record<string, number>).reduce(
      (a, b) => a + b,
      0
    )
    step.cpu_ms_per_lead = Object.fromEntries(
      Object.entries(spent).map(([name, ms]) => [
        name,
        Number((ms / Math.max(1, answered)).toFixed(3)),
      ])
    )
    return step
  }

  load(plan: Record<string, unknown>) {
    return runLoadGenerator(this.app.appRoot, 'bench/intake_load.mjs', plan)
  }

  /**
   * Acceptance → match.found, measured by bench:routing in a process of its
   * own (it recreates this database with buyers, rules and a receiver);
   * its figures are read back from the file it writes.
   */
  async routeToBuyers() {
    this.logger.info(`timing acceptance → match.found (bench:routing, ${this.rate} leads/s)`)
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawnBenchChild(
        ['ace.js', 'bench:routing', `--rate=${this.rate}`, `--duration=${this.duration}`],
        { cwd: this.app.appRoot, stdio: 'inherit' }
      )
      child.on('error', reject)
      child.on('exit', resolve)
    })
    if (code !== 0) {
      this.logger.warning(`bench:routing exited ${code}; no match.found figures`)
      return null
    }
    const figures = JSON.parse(await readFile(this.app.makePath('tmp/bench/routing.json'), 'utf8'))
    return { rate: figures.target_rate, committed: figures.routing, received: figures.delivery }
  }

  async report(
    fixed: any,
    full: any,
    limitRun: Awaited<ReturnType<typeof runRawSqlLimit>>,
    routing: Awaited<ReturnType<BenchIntake['routeToBuyers']>>
  ) {
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const limit = limitRun?.tps ?? null
    const ratio = limit && full ? full.accepted_per_s / limit : null
    const summary = {
      date: new Date().toISOString(),
      machine,
      server: { build: this.build, workers: this.workers, rollups: this.rollups },
      fixed_rate: fixed,
      full_speed: full,
      limit_tps: limit,
      limit_cpu_ms_per_transaction: limitRun && cpuFigures(limitRun),
      ratio_accepted_to_limit: ratio,
      ratio_answered_to_limit: limit && full ? full.answered_per_s / limit : null,
      acceptance_to_match_found: routing,
    }
    const table = this.ui
      .table()
      .head([
        'run',
        'leads/s answered',
        'accepted/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'statuses',
        'CPU ms/lead: server · postgres · redis · load',
      ])
    if (fixed) table.row(tableRow(`fixed ${fixed.target_rate}/s`, fixed))
    if (full) table.row(tableRow('full speed', full))
    table.render()
    if (fixed?.slowest_seconds) {
      const seconds = fixed.slowest_seconds
        .map((s: any) => `${s.second}: max ${s.max_ms} ms, ${s.over_50ms}/${s.answers} over 50 ms`)
        .join('; ')
      this.logger.info(`fixed rate, slowest seconds of the run: ${seconds}`)
    }
    this.logger.info(
      `raw-SQL limit (pgbench): ${limit?.toFixed(0) ?? 'n/a'} tx/s (CPU ms per transaction: postgres ${limitRun?.cpuMsPerRun.postgres.toFixed(2) ?? 'n/a'}, pgbench ${limitRun?.cpuMsPerRun.pgbench.toFixed(2) ?? 'n/a'}); app/limit = ${ratio?.toFixed(2) ?? 'n/a'} (accepted), ${summary.ratio_answered_to_limit?.toFixed(2) ?? 'n/a'} (all answers)`
    )
    if (routing?.received) {
      this.logger.info(
        `acceptance → match.found received at ${routing.rate} leads/s: p50 ${routing.received.p50_ms ?? 'lost'} ms, p99 ${routing.received.p99_ms ?? 'lost'} ms over ${routing.received.count + routing.received.lost} matches, ${routing.received.lost} never received (goal p99 < 500 ms)`
      )
    }
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(this.app.makePath('tmp/bench/intake.json'), JSON.stringify(summary, null, 2))
    this.logger.info('figures written to tmp/bench/intake.json')
  }
}

type StepFigures = {
  answered_per_s: number
  accepted_per_s: number
  p50_ms: number | null
  p95_ms: number | null
  p99_ms: number | null
  statuses: Record<string, number>
  cpu_ms_per_lead: Record<string, number>
}

function tableRow(run: string, step: StepFigures) {
  const ms = (value: number | null) => value?.toFixed(1) ?? '-'
  return [
    run,
    step.answered_per_s.toFixed(0),
    step.accepted_per_s.toFixed(0),
    ms(step.p50_ms),
    ms(step.p95_ms),
    ms(step.p99_ms),
    JSON.stringify(step.statuses),
    ['server', 'postgres', 'redis', 'load_generator']
      .map((group) => step.cpu_ms_per_lead[group]?.toFixed(2) ?? '-')
      .join(' · '),
  ]
}
