import { type ChildProcess } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { randomUUID } from 'node:crypto'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { refusesDatabase } from '#bench/bench_database'
import { spawnBenchChild } from '#bench/bench_child'
import { LOOPBACK, allowLoopbackReceiver } from '#bench/loopback_receiver'

type Arrival = [eventId: string, at: number, signed: number, leadId: string | null]

/**
 * Not a test: measures webhook delivery on this machine. Throughput: a
 * backlog of signed deliveries drained by one worker process into a local
 * receiver. Latency: events committed at a fixed rate, timed from the
 * producing commit to their arrival at the receiver.
 */
export default class BenchWebhooks extends BaseCommand {
  static commandName = 'bench:webhooks'
  static description =
    'Benchmark webhook delivery: signed deliveries/s, and commit-to-receipt latency at a fixed rate'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Deliveries in the throughput backlog', default: 20_000 })
  declare deliveries: number

  @flags.number({ description: 'Events per second for the latency run', default: 200 })
  declare rate: number

  @flags.number({ description: 'Seconds of the latency run', default: 20 })
  declare duration: number

  @flags.number({ description: 'Deliveries in flight in the worker', default: 64 })
  declare concurrency: number

  @flags.boolean({ description: 'Write a CPU profile of the worker to tmp/bench/' })
  declare profile: boolean

  private receiver: ChildProcess | null = null
  private worker: ChildProcess | null = null

  async run() {
    const { default: services } = await import('#config/services')
    if (refusesDatabase(this, 'bench:webhooks')) return
    const { default: DatabaseSetupService } =
      await import('#services/platform/database_setup_service')
    await new DatabaseSetupService().prepare({ fresh: true })
    const prefix = `leadgate-bench-${process.pid}`

    try {
      const port = await this.startReceiver()
      allowLoopbackReceiver(this.logger)
      const endpointId = await this.createEndpoint(`http://127.0.0.1:${port}/hooks`)
      this.logger.info(`queueing ${this.deliveries} deliveries (worker not running yet)`)
      await this.publish(this.deliveries, 500)

      this.worker = this.startWorker(services, prefix)
      const throughput = await this.drain(endpointId, this.deliveries)
      this.logger.info(
        `throughput: ${throughput.received_per_s.toFixed(0)} signed deliveries/s received, ${throughput.recorded_per_s.toFixed(0)}/s recorded`
      )

      this.logger.info(
        `latency: ${this.rate} events/s for ${this.duration} s, one commit per event`
      )
      const latency = await this.latency()
      await this.report(throughput, latency)
    } finally {
      this.worker?.kill('SIGTERM')
      this.receiver?.kill('SIGTERM')
      await this.forgetQueue(prefix)
    }
  }

  private startReceiver(): Promise<number> {
    this.receiver = spawnBenchChild([this.app.makePath('bench/webhook_receiver.mjs')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    return new Promise((resolve) =>
      this.receiver!.once('message', (message: any) => resolve(message.port))
    )
  }

  private arrivals(): Promise<Arrival[]> {
    return new Promise((resolve) => {
      this.receiver!.once('message', (message: any) => resolve(message.arrivals))
      this.receiver!.send('report')
    })
  }

  private async createEndpoint(url: string) {
    const { SYSTEM_OPERATOR } = await import('#services/access/operator_service')
    const { default: WebhookEndpointService } = await import('#services/webhooks/endpoint_service')
    const service = await this.app.container.make(WebhookEndpointService)
    // An endpoint's own field (the API takes it too); the default, 100/s, would be the figure.
    this.logger.info('the benchmark endpoint sets rate_limit_per_second 10000 (default 100)')
    const { endpoint } = await service.create(SYSTEM_OPERATOR, {
      url,
      events: ['lead.received'],
      rate_limit_per_second: 10_000,
    })
    return endpoint.id
  }

  /** Commits `count` lead.received events, `perCommit` to a transaction; returns each event's commit time. */
  private async publish(count: number, perCommit: number) {
    const { transaction } = await import('#services/sql/transaction')
    const { default: OutboxService } = await import('#services/webhooks/outbox_service')
    const outbox = new OutboxService()
    const publisherId = randomUUID()
    const committed = new Map<string, number>()
    for (let done = 0; done < count; done += perCommit) {
      const batch = Math.min(perCommit, count - done)
      const ids = await transaction((trx) =>
        outbox.publish(
          trx,
          Array.from({ length: batch }, () => {
            const leadId = randomUUID()
            return {
              type: 'lead.received',
              publisherId,
              leadId,
              environment: 'live' as const,
              data: {
                lead_id: leadId,
                publisher: 'bench',
                status: 'accepted',
                provenance: {
                  source: 'bench',
                  campaign: 'bench',
                  landing_page: 'https://bench.example/',
                  label: null,
                },
                consent: { given: true, timestamp: new Date().toISOString() },
              },
            }
          })
        )
      )
      const at = Date.now()
      for (const id of ids) committed.set(id, at)
    }
    return committed
  }

  private startWorker(services: { databaseUrl: URL; redisUrl: URL }, prefix: string) {
    const profile = this.profile
      ? ['--cpu-prof', `--cpu-prof-dir=${this.app.makePath('tmp/bench')}`]
      : []
    return spawnBenchChild(
      [...profile, 'ace', 'queue:work', '--concurrency', String(this.concurrency)],
      {
        cwd: this.app.appRoot,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          DATABASE_URL: services.databaseUrl.href,
          REDIS_URL: services.redisUrl.href,
          WEBHOOK_QUEUE_PREFIX: prefix,
          WEBHOOK_ALLOW_PRIVATE: LOOPBACK,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      }
    )
  }

  /** Waits until the backlog is received and recorded as succeeded. */
  private async drain(endpointId: string, count: number) {
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const arrivals: Arrival[] = []
    let recordedAt = 0
    let cpuAtStart = 0
    const deadline = Date.now() + 10 * 60_000
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const before = arrivals.length
      arrivals.push(...(await this.arrivals()))
      // The worker's CPU from its first delivery on, leaving its boot out.
      if (before === 0 && arrivals.length > 0) cpuAtStart = await cpuMs(this.worker!.pid!)
      if (arrivals.length < count) continue
      const [{ count: pending }] = await db
        .from('webhook_deliveries')
        .where('endpoint_id', endpointId)
        .whereNot('status', 'succeeded')
        .count('* as count')
      if (Number(pending) === 0) {
        recordedAt = Date.now()
        break
      }
    }
    const first = Math.min(...arrivals.map(([, at]) => at))
    const last = Math.max(...arrivals.map(([, at]) => at))
    const cpuUsed = (await cpuMs(this.worker!.pid!)) - cpuAtStart
    return {
      worker_cpu_ms_per_delivery: cpuUsed / count,
      deliveries: count,
      received: arrivals.length,
      signed: arrivals.every(([, , signed]) => signed === 1),
      seconds_to_receive: (last - first) / 1000,
      received_per_s: (arrivals.length - 1) / ((last - first) / 1000),
      recorded_per_s: count / ((recordedAt - first) / 1000),
      concurrency: this.concurrency,
    }
  }

  /** Events at a fixed rate, each in its own transaction; latency from its commit to its arrival. */
  private async latency() {
    const total = this.rate * this.duration
    const committed = new Map<string, number>()
    const started = Date.now()
    const inFlight: Promise<void>[] = []
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / this.rate
      const wait = due - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      inFlight.push(
        this.publish(1, 1).then((map) => map.forEach((at, id) => committed.set(id, at)))
      )
    }
    await Promise.all(inFlight)
    const arrivals: Arrival[] = []
    const deadline = Date.now() + 60_000
    while (arrivals.length < total && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      arrivals.push(...(await this.arrivals()))
    }
    const latencies = arrivals
      .filter(([id]) => committed.has(id))
      .map(([id, at]) => at - committed.get(id)!)
      .sort((a, b) => a - b)
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
    return {
      rate: this.rate,
      events: total,
      received: latencies.length,
      achieved_rate: total / ((Date.now() - started) / 1000),
      p50_ms: at(0.5),
      p90_ms: at(0.9),
      p99_ms: at(0.99),
      max_ms: latencies[latencies.length - 1],
    }
  }

  private async report(throughput: Record<string, unknown>, latency: Record<string, number>) {
    const summary = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`,
      node: process.version,
      throughput,
      latency,
    }
    this.ui
      .table()
      .head(['run', 'figure'])
      .row(['signed deliveries/s (received)', Number(throughput.received_per_s).toFixed(0)])
      .row([
        'signed deliveries/s (recorded in Postgres)',
        Number(throughput.recorded_per_s).toFixed(0),
      ])
      .row([`commit → receipt p50 at ${latency.rate}/s`, `${latency.p50_ms} ms`])
      .row([`commit → receipt p99 at ${latency.rate}/s`, `${latency.p99_ms} ms`])
      .row(['events received / sent', `${latency.received} / ${latency.events}`])
      .render()
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(this.app.makePath('tmp/bench/webhooks.json'), JSON.stringify(summary, null, 2))
    this.logger.info('figures written to tmp/bench/webhooks.json')
  }

  /** The benchmark's BullMQ keys go with it. */
  private async forgetQueue(prefix: string) {
    const { Queue } = await import('bullmq')
    const { redisConnection } = await import('#config/redis')
    const { default: webhooksConfig } = await import('#config/webhooks')
    const queue = new Queue(webhooksConfig.queue.name, { connection: redisConnection, prefix })
    await queue.obliterate({ force: true }).catch(() => {})
    await queue.close()
  }
}

/** CPU time (user + system) a process has used so far, from /proc; 0 where there is no /proc. */
async function cpuMs(pid: number) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}
