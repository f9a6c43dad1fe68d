import { type ChildProcess } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import env from '#start/env'
import services from '#config/services'
import User from '#models/user'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import ApiKeyService from '#services/access/api_key_service'
import PublisherService from '#services/catalogue/publisher_service'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import { summarise } from '#bench/routing_table'
import { refusesDatabase } from '#bench/bench_database'
import { spawnBenchChild } from '#bench/bench_child'
import { startRollupFolder } from '#services/reports/rollup_folder'

const PASSWORD = 'bench-dashboards-password'
/** How long after the last lead a dashboard may still show it. */
const GRACE_MS = 5000

type Tab = {
  publisher: number
  messages: number
  /** Messages with figures: [receivedAt, computedAt]. */
  pushes: [number, number][]
  /** Fallback reloads (messages without figures): [start, end, status]. */
  refreshes: [number, number, number][]
}
type LeadRecord = [publisher: number, createdAt: number | null, answeredAt: number, status: number]

/**
 * Not a test: publishers' live dashboards while leads arrive. Signs in one user per publisher,
 * opens several dashboard tabs each (an event stream and a subscription per tab, taking the
 * pushed figures as the page does, or reloading them at most once a second when a message
 * carries none), posts leads at a fixed rate through the API, and times each lead → each of
 * its publisher's tabs showing figures read after the lead was stored. A lead a tab never
 * showed by the end is counted as lost, never left out.
 */
export default class BenchDashboards extends BaseCommand {
  static commandName = 'bench:dashboards'
  static description = 'Benchmark live publisher dashboards: 500 open tabs while leads arrive'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Leads per second', default: 300 })
  declare rate: number

  @flags.number({ description: 'Seconds of load', default: 20 })
  declare duration: number

  @flags.number({ description: 'Publishers (one signed-in user each)', default: 50 })
  declare publishers: number

  @flags.number({ description: 'Dashboard tabs per user', default: 10 })
  declare tabs: number

  async run() {
    if (refusesDatabase(this, 'bench:dashboards')) return
    const port = 3397
    await new DatabaseSetupService().prepare({ fresh: true })
    const seeded = await this.seed()
    this.logger.info(
      "no queue:work process: routing jobs wait in Redis (the live feed is the web server's); its report rollup folder runs in this process"
    )
    this.logger.info('building (node ace build)')
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port,
      build: true,
      env: { APP_KEY: env.get('APP_KEY').release(), DATABASE_URL: services.databaseUrl.href },
    })
    // The dashboards read the rollups plus the log not folded yet: fold it as queue:work would
    // (once the server is up, so a failed build leaves nothing running).
    const stopFolder = startRollupFolder()
    const baseUrl = `http://127.0.0.1:${port}`
    const children: ChildProcess[] = []
    try {
      this.logger.info(`opening ${seeded.length * this.tabs} dashboards`)
      const dashboards = this.spawnLoad(children, 'dashboards', {
        baseUrl,
        tabsPerUser: this.tabs,
        users: seeded.map((publisher, index) => ({
          publisherIndex: index,
          publisherId: publisher.id,
          email: publisher.email,
          password: PASSWORD,
        })),
      })
      const opened = (await dashboards.next()) as { ready: number }
      const leads = this.spawnLoad(children, 'leads', {
        baseUrl,
        rate: this.rate,
        duration: this.duration,
        connections: Math.max(8, Math.ceil(this.rate / 4)),
        publishers: seeded.map(({ slug, key }) => ({ slug, key })),
      })
      await leads.next()
      this.logger.info(
        `measuring: ${opened.ready} dashboards open, ${this.duration} s of leads at ${this.rate}/s`
      )
      const groups = {
        ...benchCpuGroups(server.pid!),
        'load (dashboards and leads)': (pid: number) => children.some((child) => child.pid === pid),
      }
      const before = cpuSnapshot(groups)
      leads.send()
      const posted = (await leads.next()) as { figures: any; records: LeadRecord[] }
      await new Promise((resolve) => setTimeout(resolve, GRACE_MS))
      const cpu = cpuSpent(before, cpuSnapshot(groups))
      dashboards.send()
      const { tabs } = (await dashboards.next()) as { tabs: Tab[] }
      await this.report(posted, tabs, cpu)
    } finally {
      for (const child of children) child.kill('SIGTERM')
      await stopBenchServer(server)
      await stopFolder()
    }
  }

  /** A load process; `next()` is its next IPC message, `send()` its go (or report) signal. */
  private spawnLoad(children: ChildProcess[], mode: string, plan: Record<string, unknown>) {
    const child = spawnBenchChild(['bench/dashboards_load.mjs', mode, JSON.stringify(plan)], {
      cwd: this.app.appRoot,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    children.push(child)
    const inbox: unknown[] = []
    const waiting: { resolve: (message: unknown) => void; reject: (error: Error) => void }[] = []
    child.on('message', (message) => {
      const waiter = waiting.shift()
      if (waiter) waiter.resolve(message)
      else inbox.push(message)
    })
    child.on('exit', (code) => {
      for (const waiter of waiting.splice(0))
        waiter.reject(new Error(`${mode} load exited ${code}`))
    })
    return {
      next: () =>
        inbox.length
          ? Promise.resolve(inbox.shift())
          : new Promise<unknown>((resolve, reject) => waiting.push({ resolve, reject })),
      send: () => child.send('go'),
    }
  }

  private async seed() {
    const publishers = await this.app.container.make(PublisherService)
    const keys = await this.app.container.make(ApiKeyService)
    const seeded = []
    for (let i = 0; i < this.publishers; i++) {
      const publisher = await publishers.create(SYSTEM_OPERATOR, {
        slug: `dash-${i}`,
        name: `Dashboard publisher ${i}`,
        contact_email: `dash-${i}@bench.example`,
        country: 'NL',
      })
      publisher.merge({ status: 'live', deliveryMethods: ['api'] })
      await publisher.save()
      const { secret } = await keys.create(SYSTEM_OPERATOR, {
        name: `dash-${i}`,
        publisher_id: publisher.id,
        permissions: ['submit'],
        environment: 'live',
      })
      const user = await User.create({
        email: `dash-user-${i}@bench.example`,
        password: PASSWORD,
        role: 'publisher_user',
        publisherId: publisher.id,
        permissions: ['read'],
      })
      seeded.push({ id: publisher.id, slug: publisher.slug, key: secret, email: user.email })
    }
    return seeded
  }

  /** Each stored lead × each tab of its publisher: when the tab first showed figures read after it. */
  private async report(
    posted: { figures: any; records: LeadRecord[] },
    tabs: Tab[],
    cpu: Record<string, number>
  ) {
    const tabsOf = new Map<number, Tab[]>()
    for (const tab of tabs) tabsOf.set(tab.publisher, [...(tabsOf.get(tab.publisher) ?? []), tab])
    const latencies: number[] = []
    let lost = 0
    const stored = posted.records.filter(([, createdAt, , status]) => status === 201 && createdAt)
    for (const [publisher, createdAt, answeredAt] of stored) {
      for (const tab of tabsOf.get(publisher) ?? []) {
        // Figures whose computation began once the lead's answer was out certainly count it;
        // so does a reload that began then.
        const pushed = tab.pushes.find(([, computedAt]) => computedAt >= answeredAt)
        const reloaded = tab.refreshes.find(
          ([start, , status]) => start >= answeredAt && status === 200
        )
        const shownAt = Math.min(pushed?.[0] ?? Infinity, reloaded?.[1] ?? Infinity)
        if (shownAt < Infinity) latencies.push(shownAt - createdAt!)
        else lost++
      }
    }
    const refreshes = tabs.flatMap((tab) => tab.refreshes)
    const failed = refreshes.filter(([, , status]) => status !== 200).length
    const figures = summarise(latencies, lost)
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const summary = {
      date: new Date().toISOString(),
      machine,
      dashboards: tabs.length,
      publishers: tabsOf.size,
      leads: posted.figures,
      lead_to_dashboard: figures,
      messages_heard: tabs.reduce((sum, tab) => sum + tab.messages, 0),
      messages_with_figures: tabs.reduce((sum, tab) => sum + tab.pushes.length, 0),
      reloads: refreshes.length,
      reloads_failed: failed,
      cpu_ms_per_lead: Object.fromEntries(
        Object.entries(cpu).map(([name, ms]) => [
          name,
          Number((ms / Math.max(1, stored.length)).toFixed(3)),
        ])
      ),
    }
    const show = (ms: number | null) => (ms === null ? 'lost' : String(ms))
    this.ui
      .table()
      .head([
        'dashboards',
        'leads/s stored',
        'lead p99 ms',
        'shown',
        'lost',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
      ])
      .row([
        String(tabs.length),
        posted.figures.accepted_per_s.toFixed(0),
        String(posted.figures.p99_ms?.toFixed(0) ?? '-'),
        String(figures.count),
        String(figures.lost),
        show(figures.p50_ms),
        show(figures.p95_ms),
        show(figures.p99_ms),
        show(figures.max_ms),
      ])
      .render()
    this.logger.info(
      `lead answers ${JSON.stringify(posted.figures.statuses)}, errors ${posted.figures.errors}; messages ${summary.messages_heard} (${summary.messages_with_figures} with figures); reloads ${refreshes.length} (${failed} failed); CPU ms per lead ${JSON.stringify(summary.cpu_ms_per_lead)}; goal: p99 < 2000 ms`
    )
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(
      this.app.makePath('tmp/bench/dashboards.json'),
      JSON.stringify(summary, null, 2)
    )
    this.logger.info('figures written to tmp/bench/dashboards.json')
  }
}
