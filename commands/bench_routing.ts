import { type ChildProcess } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { QueueEvents } from 'bullmq'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import Principal, { type Permission } from '#auth/principal'
import routingConfig from '#config/routing'
import { redisConnection } from '#config/redis'
import services from '#config/services'
import DatabaseSetupService from '#services/platform/database_setup_service'
import IntakeService from '#services/intake/intake_service'
import type { RoutingOutcome } from '#services/routing/routing_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import PublisherService from '#services/catalogue/publisher_service'
import Buyer from '#models/buyer'
import {
  type LatencySummary,
  routingLatencySince,
  seedRoutingBench,
  summarise,
} from '#bench/routing_table'
import {
  closeRoutingQueues,
  routingQueue,
  startRoutingWorker,
} from '#services/routing/routing_queue'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import { WebhookRuntime } from '#services/webhooks/runtime'
import { startRollupFolder } from '#services/reports/rollup_folder'
import { benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import { benchLeadBody } from '#bench/bench_lead'
import { refusesDatabase } from '#bench/bench_database'
import { cpuFigures, runRawSqlLimit } from '#bench/raw_sql_limit'
import { spawnBenchChild, stillRunning } from '#bench/bench_child'
import { LOOPBACK, allowLoopbackReceiver } from '#bench/loopback_receiver'

/**
 * Not a test: how long an accepted lead waits for its buyer. Seeds 50 buyers
 * (each with a webhook endpoint for match.found, pointing at a receiver in
 * a process of its own) and 500 rules in a fresh benchmark database, runs
 * the routing worker and the webhook runtime in a child process, accepts
 * leads in this one at a fixed rate through the real intake pipeline (which
 * queues each for routing after its commit), and measures acceptance →
 * match.found committed (routing) and acceptance → match.found received
 * (delivery).
 *
 *   DATABASE_URL=postgres://leadgate_app@127.0.0.1:5432/leadgate_bench node ace bench:routing
 */
export default class BenchRouting extends BaseCommand {
  static commandName = 'bench:routing'
  static description =
    'Benchmark routing latency (acceptance to match.found) with 50 buyers and 500 rules'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Leads accepted per second', default: 300 })
  declare rate: number

  @flags.number({ description: 'Seconds of load', default: 20 })
  declare duration: number

  @flags.number({ description: 'Routing rules', default: 500 })
  declare rules: number

  @flags.number({ description: 'Buyers', default: 50 })
  declare buyers: number

  @flags.number({
    description: 'Routing jobs in flight per worker process',
    default: routingConfig.concurrency,
  })
  declare concurrency: number

  @flags.boolean({
    description: 'Deliver match.found to a local receiver and time it',
    default: true,
  })
  declare deliver: boolean

  @flags.boolean({ description: 'Write a CPU profile of the routing worker to tmp/profile' })
  declare profile: boolean

  @flags.boolean({
    description:
      "Then run the raw-SQL floor of a lead's whole path (bench/limit/path.sql, 15 s at --rate and 15 s at full speed) and set the CPU per lead against it",
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare floor: boolean

  @flags.boolean({ description: 'Internal: run as the routing worker process' })
  declare worker: boolean

  private delivered = new Map<string, number>()
  private receiver: ChildProcess | null = null

  async run() {
    if (this.worker) return this.runWorker()
    if (refusesDatabase(this, 'bench:routing')) return
    await new DatabaseSetupService().prepare({ fresh: true })
    const publishers = await this.seed()
    await routingQueue().obliterate({ force: true })
    this.logger.info(
      `seeded ${this.buyers} buyers, ${this.rules} rules, ${publishers.length} publishers in ${services.databaseName}`
    )

    const receiver = this.deliver ? await this.startReceiver() : null
    if (receiver) {
      allowLoopbackReceiver(this.logger)
      await this.subscribeBuyers(receiver.port)
    }
    const worker = await this.spawnWorker()
    let summary: Awaited<ReturnType<BenchRouting['report']>> | null = null
    const events = new QueueEvents(routingConfig.queue, {
      connection: redisConnection,
      prefix: routingConfig.prefix,
    })
    try {
      await events.waitUntilReady()
      this.logger.info('warming up (3 s at 50 leads/s)')
      await this.load(publishers, events, 50, 3)
      this.logger.info(`measuring: ${this.duration} s at ${this.rate} leads/s`)
      const since = new Date()
      const cpuGroups = {
        ...benchCpuGroups(worker.pid!, 'worker'),
        'intake (this process)': (pid: number) => pid === process.pid,
        'receiver': (pid: number) => pid === receiver?.process.pid,
      }
      const before = cpuSnapshot(cpuGroups)
      const measured = await this.load(publishers, events, this.rate, this.duration)
      const cpu = cpuSpent(before, cpuSnapshot(cpuGroups))
      const fromDatabase = await routingLatencySince(since)
      summary = await this.report(measured, fromDatabase, cpu)
    } finally {
      worker.kill('SIGTERM')
      receiver?.process.kill('SIGTERM')
      await events.close()
      await closeRoutingQueues()
    }
    if (!summary) return
    let figures: Record<string, unknown> = summary
    if (this.floor) {
      // Nothing of the run may still be busy when the floor is measured.
      if (stillRunning(worker)) await new Promise((resolve) => worker.once('exit', resolve))
      figures = { ...summary, ...(await this.compareWithFloor(summary)) }
    }
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(this.app.makePath('tmp/bench/routing.json'), JSON.stringify(figures, null, 2))
    this.logger.info('figures written to tmp/bench/routing.json')
  }

  /**
   * The same machine running only the SQL of a lead's whole path, one lead per
   * transaction, with pgbench as the client (bench/limit/README.md): what the
   * CPU per lead above compares with, at the run's rate (each lead pays its own
   * wake-ups and commits, as the app's do) and at full speed (the least CPU per
   * lead that SQL reaches). Run once the worker and receiver are gone.
   */
  private async compareWithFloor(summary: Awaited<ReturnType<BenchRouting['report']>>) {
    const perLead = Object.values(summary.cpu_ms_per_lead).reduce((sum, ms) => sum + ms, 0)
    const floors: Record<string, unknown> = {}
    for (const [name, rate] of [
      [`at ${this.rate} leads/s`, this.rate],
      ['at full speed', undefined],
    ] as const) {
      this.logger.info(`running the raw-SQL floor of a lead's whole path ${name} (pgbench, 15 s)`)
      const floor = await runRawSqlLimit(this.app.appRoot, 'path', rate)
      const floorMs = floor ? floor.cpuMsPerRun.pgbench + floor.cpuMsPerRun.postgres : null
      this.logger.info(
        `raw-SQL floor ${name}: ${floor?.tps.toFixed(0) ?? 'n/a'} leads/s, CPU ms per lead: postgres ${floor?.cpuMsPerRun.postgres.toFixed(2) ?? 'n/a'}, pgbench ${floor?.cpuMsPerRun.pgbench.toFixed(2) ?? 'n/a'}; the app: ${perLead.toFixed(2)} ms per lead in all (postgres ${summary.cpu_ms_per_lead.postgres?.toFixed(2) ?? 'n/a'}), ${floorMs ? (perLead / floorMs).toFixed(2) : 'n/a'} × this floor`
      )
      floors[rate ? 'at_rate' : 'full_speed'] = floor && {
        leads_per_s: Number(floor.tps.toFixed(0)),
        cpu_ms_per_lead: cpuFigures(floor),
      }
    }
    return { cpu_ms_per_lead_in_all: Number(perLead.toFixed(3)), raw_sql_floor: floors }
  }

  private async runWorker() {
    const stop = await startRoutingWorker({ concurrency: this.concurrency, sweep: false })
    // queue:work folds the report rollup log beside routing; its cost is the worker's too.
    const stopFolder = startRollupFolder()
    const webhooks = this.deliver ? new WebhookRuntime({ allowPrivate: [LOOPBACK] }) : null
    await webhooks?.start()
    const cpu = process.cpuUsage()
    const loopDelay = monitorEventLoopDelay({ resolution: 5 })
    loopDelay.enable()
    process.stdout.write('routing-worker-ready\n')
    await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()))
    const used = process.cpuUsage(cpu)
    const ms = (nanoseconds: number) => (nanoseconds / 1e6).toFixed(0)
    process.stderr.write(
      `routing worker: ${Math.round((used.user + used.system) / 1000)} ms CPU in this process; event-loop delay p50 ${ms(loopDelay.percentile(50))} / p99 ${ms(loopDelay.percentile(99))} / max ${ms(loopDelay.max)} ms\n`
    )
    await stop()
    await stopFolder()
    await webhooks?.stop()
    await closeRoutingQueues()
  }

  /** Where the buyers' endpoints point: a process of its own, so its event loop is not the intake's. */
  private startReceiver(): Promise<{ process: ChildProcess; port: number }> {
    const child = spawnBenchChild([this.app.makePath('bench/webhook_receiver.mjs')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.receiver = child
    return new Promise((resolve) =>
      child.once('message', (message: any) => resolve({ process: child, port: message.port }))
    )
  }

  /** Notes when each lead's match.found first arrived at the receiver. */
  private collectArrivals(): Promise<void> {
    const receiver = this.receiver
    if (!receiver) return Promise.resolve()
    return new Promise((resolve) => {
      receiver.once('message', (message: any) => {
        for (const [, at, , leadId] of message.arrivals as [string, number, number, string][]) {
          if (leadId && !this.delivered.has(leadId)) this.delivered.set(leadId, at)
        }
        resolve()
      })
      receiver.send('report')
    })
  }

  private async subscribeBuyers(port: number) {
    const endpoints = await this.app.container.make(WebhookEndpointService)
    const url = `http://127.0.0.1:${port}/match`
    const buyers = await Buyer.query().select('id')
    for (const buyer of buyers) {
      await endpoints.create(SYSTEM_OPERATOR, { url, events: ['match.found'], buyer_id: buyer.id })
    }
  }

  private spawnWorker(): Promise<ChildProcess> {
    const child = spawnBenchChild(
      [
        ...(this.profile
          ? ['--cpu-prof', `--cpu-prof-dir=${this.app.makePath('tmp/profile')}`]
          : []),
        'ace.js',
        'bench:routing',
        '--worker',
        `--concurrency=${this.concurrency}`,
        this.deliver ? '--deliver' : '--no-deliver',
      ],
      {
        cwd: this.app.appRoot,
        env: { ...process.env, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'inherit'],
      }
    )
    return new Promise((resolve, reject) => {
      child.stdout!.on(
        'data',
        (chunk) => String(chunk).includes('routing-worker-ready') && resolve(child)
      )
      child.on('exit', (code) => reject(new Error(`routing worker exited ${code}`)))
    })
  }

  private async seed() {
    const publisherService = await this.app.container.make(PublisherService)
    const seeded = []
    for (let i = 0; i < 4; i++) {
      const publisher = await publisherService.create(SYSTEM_OPERATOR, {
        slug: `bench-${i}`,
        name: `Bench publisher ${i}`,
        contact_email: `bench-${i}@bench.example`,
        country: 'NL',
      })
      publisher.merge({ status: 'live', deliveryMethods: ['api'] })
      await publisher.save()
      seeded.push(publisher)
    }
    await seedRoutingBench({
      rules: this.rules,
      buyers: this.buyers,
      publisherIds: seeded.map((p) => p.id),
    })
    return seeded
  }

  /**
   * Accepts `rate` leads a second for `seconds` and waits for every one to
   * be routed; latency runs from the intake commit to the routing job's end
   * (after the routing commit, so match.found is in the outbox).
   */
  private async load(
    publishers: { id: string; slug: string }[],
    events: QueueEvents,
    rate: number,
    seconds: number
  ) {
    const intake = await this.app.container.make(IntakeService)
    const accepted = new Map<string, number>()
    const waiting = new Set<string>()
    const matched: string[] = []
    const latencies: number[] = []
    const outcomes: Record<string, number> = {}
    // The event's stream id is Redis's clock when the job completed, i.e. after the routing commit;
    // reading it there keeps this process's own event-loop lag out of the figure.
    // A job carries the leads accepted together and completes with each one's outcome.
    const onCompleted = ({ returnvalue }: { returnvalue: unknown }, streamId: string) => {
      const parsed = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue
      const results: RoutingOutcome[] = Array.isArray(parsed) ? parsed : parsed ? [parsed] : []
      for (const result of results) {
        const start = accepted.get(result.leadId)
        if (start === undefined || !waiting.delete(result.leadId)) continue
        latencies.push(Number(streamId.split('-')[0]) - start)
        if (result.outcome === 'matched') matched.push(result.leadId)
        const key = result.outcome === 'unsold' ? `unsold:${result.reason}` : result.outcome
        outcomes[key] = (outcomes[key] ?? 0) + 1
      }
    }
    events.on('completed', onCompleted)

    let serial = 0
    let failed = 0
    const submit = async () => {
      serial++
      const publisher = publishers[serial % publishers.length]
      const principal = new Principal(
        'publisher',
        new Set<Permission>(['read', 'submit']),
        'live',
        'api_key:bench',
        publisher.id
      )
      try {
        const answer = await intake.submit(principal, benchLead(publisher.slug, serial), {
          channel: 'api',
          consentMethod: 'api',
        })
        const body = answer.body as { id: string; status: string; created_at: string }
        if (body.status !== 'accepted') return
        const id = body.id
        // Intake queues its routing (with the leads accepted beside it) as for every accepted lead.
        // Latency runs from the lead's own acceptance time stamp, not from when this process saw the answer.
        accepted.set(id, Date.parse(body.created_at))
        waiting.add(id)
      } catch {
        failed++
      }
    }
    const started = performance.now()
    const inFlight = new Set<Promise<void>>()
    let sent = 0
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate) - sent
      for (let i = 0; i < due; i++) {
        const task = submit().finally(() => inFlight.delete(task))
        inFlight.add(task)
        sent++
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const elapsed = (performance.now() - started) / 1000
    await Promise.all(inFlight)
    const deadline = Date.now() + 60_000
    const undelivered = () => (this.deliver ? matched.filter((id) => !this.delivered.has(id)) : [])
    await this.collectArrivals()
    while ((waiting.size > 0 || undelivered().length > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      await this.collectArrivals()
    }
    events.off('completed', onCompleted)
    const deliveries = matched.flatMap((id) =>
      this.delivered.has(id) ? [this.delivered.get(id)! - accepted.get(id)!] : []
    )
    const lost = matched.length - deliveries.length
    return {
      target_rate: rate,
      sent,
      sent_per_s: sent / elapsed,
      intake_failures: failed,
      not_routed: waiting.size,
      not_delivered: undelivered().length,
      outcomes,
      routing: summarise(latencies, waiting.size),
      delivery: this.deliver ? summarise(deliveries, lost) : null,
    }
  }

  private async report(
    measured: Awaited<ReturnType<BenchRouting['load']>>,
    fromDatabase: Awaited<ReturnType<typeof routingLatencySince>>,
    cpu: Record<string, number>
  ) {
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const summary = {
      date: new Date().toISOString(),
      machine,
      buyers: this.buyers,
      rules: this.rules,
      concurrency: this.concurrency,
      ...measured,
      database: fromDatabase,
      cpu_ms_per_lead: Object.fromEntries(
        Object.entries(cpu).map(([name, ms]) => [name, Number((ms / measured.sent).toFixed(3))])
      ),
    }
    const table = this.ui
      .table()
      .head(['acceptance →', 'leads/s', 'count', 'lost', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'])
    const row = (name: string, figures: LatencySummary) =>
      table.row([
        name,
        measured.sent_per_s.toFixed(0),
        String(figures.count),
        String(figures.lost),
        ...[figures.p50_ms, figures.p95_ms, figures.p99_ms, figures.max_ms].map((ms) =>
          ms === null ? 'lost' : String(ms)
        ),
      ])
    row('match.found committed', measured.routing)
    if (measured.delivery) row('match.found received', measured.delivery)
    table.render()
    this.logger.info(
      `CPU ms per lead: ${Object.entries(summary.cpu_ms_per_lead)
        .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
        .join(', ')}`
    )
    this.logger.info(
      `outcomes ${JSON.stringify(measured.outcomes)}; not routed ${measured.not_routed}, not delivered ${measured.not_delivered}; goal: p99 < 500 ms at 300 leads/s`
    )
    return summary
  }
}

/** A valid lead whose age spreads over the bench rules' criteria. */
function benchLead(publisher: string, serial: number) {
  return benchLeadBody(publisher, serial, { age: 18 + (serial % 60) })
}
