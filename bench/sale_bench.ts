import { type ChildProcess } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import type { BaseCommand } from '@adonisjs/core/ace'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import services from '#config/services'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import ApiKeyService from '#services/access/api_key_service'
import PublisherService from '#services/catalogue/publisher_service'
import DatabaseSetupService from '#services/platform/database_setup_service'
import TenancyService from '#services/platform/tenancy_service'
import { closeRoutingQueues, routingQueue } from '#services/routing/routing_queue'
import { type BenchServer, startBenchServer, stopBenchServer } from '#bench/app_server'
import { spawnBenchChild, stillRunning } from '#bench/bench_child'
import { benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import { runLoadGenerator } from '#bench/load_generator'
import { LOOPBACK } from '#bench/loopback_receiver'

/**
 * What bench:sale and bench:auction share: the app as deployed (the compiled web process and
 * `node ace queue:work` from the same build), buyers' systems as local HTTP servers in a process
 * of their own (bench/buyer_systems.mjs), the selling set-up made through the API, leads through
 * HTTP intake (bench/sale_load.mjs), and the checks read back from Postgres.
 */

export type BuyerSystemPlan = {
  delaysMs: number[]
  rejectRatio: number
  pingTimeoutRatio?: number
  bid?: [number, number]
}
/** [system index, lead_id, received at (epoch ms), accepted 0|1] */
export type Post = [number, string | null, number, number]
export type PingFigures = {
  received: number
  unanswered: number
  bids: number
  with_contact: number
  examples: string[]
}

/**
 * Besides the server's own (bench/app_server.ts): the buyers' systems listen on the loopback,
 * which the SSRF guard refuses by default, over plain http, which production refuses.
 */
export const SELLING_SETTINGS = { WEBHOOK_ALLOW_PRIVATE: LOOPBACK, WEBHOOK_REQUIRE_HTTPS: 'false' }

export class SaleBench {
  server: BenchServer | null = null
  worker: ChildProcess | null = null
  systems: ChildProcess | null = null
  ports: number[] = []
  operatorKey = ''
  readonly baseUrl: string

  constructor(
    private command: BaseCommand,
    readonly port: number
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`
  }

  get logger() {
    return this.command.logger
  }

  /** A fresh database, the buyers' systems, the web server and the worker from one build. */
  async start(systems: BuyerSystemPlan[]) {
    await new DatabaseSetupService().prepare({ fresh: true })
    // A previous run's routing jobs (same database name, same queue prefix) must not reach this one.
    await routingQueue().obliterate({ force: true })
    await closeRoutingQueues()
    const keys = await this.command.app.container.make(ApiKeyService)
    const { secret } = await keys.create(SYSTEM_OPERATOR, {
      name: 'bench operator',
      permissions: ['read', 'submit'],
      environment: 'live',
    })
    this.operatorKey = secret
    this.ports = await this.startSystems(systems)
    this.logger.info(`${systems.length} buyers' systems listening (bench/buyer_systems.mjs)`)
    this.logger.info('building (node ace build)')
    const appEnv = {
      APP_KEY: env.get('APP_KEY').release(),
      DATABASE_URL: services.databaseUrl.href,
      REDIS_URL: services.redisUrl.href,
    }
    this.server = await startBenchServer({
      appRoot: this.command.app.appRoot,
      port: this.port,
      build: true,
      env: { ...appEnv, ...SELLING_SETTINGS },
    })
    this.worker = await this.startWorker(this.server.root, appEnv)
  }

  async stop() {
    this.systems?.kill('SIGTERM')
    if (this.worker && stillRunning(this.worker)) {
      const worker = this.worker
      await new Promise((resolve) => {
        worker.once('exit', resolve)
        worker.kill('SIGTERM')
      })
    }
    if (this.server) await stopBenchServer(this.server)
  }

  private startSystems(systems: BuyerSystemPlan[]): Promise<number[]> {
    const child = spawnBenchChild(
      [this.command.app.makePath('bench/buyer_systems.mjs'), JSON.stringify({ systems })],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }
    )
    this.systems = child
    return new Promise((resolve) => child.once('message', (message: any) => resolve(message.ports)))
  }

  /** `node ace queue:work` in the build, as deployed, with the server's settings. */
  private startWorker(root: string, appEnv: Record<string, string>): Promise<ChildProcess> {
    const settings = { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...SELLING_SETTINGS }
    this.logger.info(
      `worker (node ace queue:work in the build): settings changed from npm run queue:work: ${JSON.stringify(settings)}`
    )
    const child = spawnBenchChild(['ace.js', 'queue:work'], {
      cwd: root,
      env: { ...process.env, ...appEnv, ...settings },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        if (String(chunk).includes('worker running')) resolve(child)
      })
      child.on('exit', (code) => reject(new Error(`queue:work exited ${code}`)))
    })
  }

  /** What the buyers' systems received since the last report. */
  report(): Promise<{ posts: Post[]; pings: PingFigures }> {
    return new Promise((resolve) => {
      this.systems!.once('message', (message: any) => resolve(message))
      this.systems!.send('report')
    })
  }

  /** An operator call; anything but a 2xx stops the benchmark with the problem it answered. */
  async api(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<any> {
    const answer = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'authorization': `Bearer ${this.operatorKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    })
    const text = await answer.text()
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`)
    return JSON.parse(text)
  }

  /** A label (with its sale settings, when given) made through the API. */
  async label(slug: string, sale?: Record<string, unknown>) {
    const label = await this.api('POST', '/v1/labels', { slug, name: `Bench ${slug}` })
    if (sale) await this.api('PATCH', `/v1/labels/${label.id}`, { sale })
    return label as { id: string; slug: string }
  }

  /** Live publishers under the label, each with a live key (onboarding is not what is measured). */
  async publishers(count: number, label: string) {
    const publishers = await this.command.app.container.make(PublisherService)
    const keys = await this.command.app.container.make(ApiKeyService)
    const seeded = []
    for (let i = 0; i < count; i++) {
      const publisher = await publishers.create(SYSTEM_OPERATOR, {
        slug: `${label}-pub-${i}`,
        name: `Bench publisher ${i}`,
        contact_email: `${label}-pub-${i}@bench.example`,
        country: 'NL',
        label,
      })
      publisher.merge({ status: 'live', deliveryMethods: ['api'] })
      await publisher.save()
      const { secret } = await keys.create(SYSTEM_OPERATOR, {
        name: `${label}-pub-${i}`,
        publisher_id: publisher.id,
        permissions: ['submit'],
        environment: 'live',
      })
      seeded.push({ id: publisher.id, slug: publisher.slug, key: secret })
    }
    return seeded
  }

  /** A buyer and its http destination on buyer system `index`, through the API. */
  async buyerWithDestination(index: number, ping?: { timeoutMs: number }) {
    const buyer = await this.api('POST', '/v1/buyers', {
      name: `Bench buyer ${index}`,
      contact_email: `bench-buyer-${index}@bench.example`,
    })
    const url = `http://127.0.0.1:${this.ports[index]}`
    const destination = await this.api('POST', `/v1/buyers/${buyer.id}/destinations`, {
      name: `Bench buyer ${index} system`,
      kind: 'http',
      http: {
        method: 'POST',
        url: `${url}/post`,
        content_type: 'json',
        template:
          '{"lead_id": {{ lead_id | json }}, "name": {{ contact.name | json }}, "email": {{ contact.email | json }}, "phone": {{ contact.phone | e164 | json }}, "bid_id": {{ bid_id | json }}}',
        timeout_ms: 2000,
        response: {
          accepted: { path: '$.result', equals: 'ok' },
          rejected: { path: '$.result', equals: 'rejected' },
          reason_path: '$.reason',
          buyer_lead_id_path: '$.id',
        },
        ...(ping && {
          ping: {
            url: `${url}/ping`,
            // Asks for the contact fields too: a ping must carry them empty.
            template:
              '{"lead_id": {{ lead_id | json }}, "name": {{ contact.name | json }}, "email": {{ contact.email | json }}, "phone": {{ contact.phone | json }}, "postal": {{ contact.postal_code | json }}, "age": {{ attributes.age | json }}}',
            bid_path: '$.bid',
            bid_id_path: '$.bid_id',
            timeout_ms: ping.timeoutMs,
          },
        }),
      },
    })
    return { buyerId: buyer.id as string, destinationId: destination.id as string }
  }

  /** Leads at `rate` for `duration` s from a load process of its own; CPU of web, worker and Postgres over it. */
  async load(publishers: { slug: string; key: string }[], rate: number, duration: number) {
    const groups = {
      ...benchCpuGroups(this.server!.pid!, 'web'),
      worker: (pid: number) => pid === this.worker!.pid,
    }
    const before = cpuSnapshot(groups)
    const loadBefore = os.loadavg()[0]
    const result = (await runLoadGenerator(this.command.app.appRoot, 'bench/sale_load.mjs', {
      baseUrl: this.baseUrl,
      rate,
      duration,
      connections: Math.max(8, Math.ceil(rate / 4)),
      publishers: publishers.map(({ slug, key }) => ({ slug, key })),
    })) as unknown as { figures: Record<string, any>; accepted: [string, number][] }
    return { ...result, cpuBefore: before, groups, loadBefore }
  }

  /** Until no lead of the run is still selling (or `ms` passed); the CPU spent up to then. */
  async settle(leadIds: string[], ms: number) {
    const deadline = Date.now() + ms
    let open = leadIds.length
    while (open > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      const { rows } = await db.rawQuery(
        `SELECT count(*)::int AS open FROM lead_facts
          WHERE lead_id = ANY(?::uuid[]) AND coalesce(sale_status, 'selling') = 'selling'`,
        [leadIds]
      )
      open = rows[0].open
    }
    return open
  }

  cpuSince(load: { cpuBefore: Record<string, number>; groups: Parameters<typeof cpuSnapshot>[0] }) {
    return cpuSpent(load.cpuBefore, cpuSnapshot(load.groups))
  }

  async write(name: string, summary: Record<string, unknown>) {
    await mkdir(this.command.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(
      this.command.app.makePath(`tmp/bench/${name}.json`),
      JSON.stringify(summary, null, 2)
    )
    this.logger.info(`figures written to tmp/bench/${name}.json`)
  }
}

/** The host's 1-minute load average when the load began and now: others share the machine. */
export const hostLoad = (load: { loadBefore: number }) => ({
  at_start: Number(load.loadBefore.toFixed(2)),
  at_end: Number(os.loadavg()[0].toFixed(2)),
})

export const machine = () =>
  `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`

/** How each lead of the run ended, from lead_facts. */
export async function outcomes(leadIds: string[]) {
  const { rows } = await db.rawQuery(
    `SELECT coalesce(unsold_reason, sale_status, status) AS outcome, count(*)::int AS leads
       FROM lead_facts WHERE lead_id = ANY(?::uuid[]) GROUP BY 1`,
    [leadIds]
  )
  return Object.fromEntries(rows.map((row: any) => [row.outcome, row.leads]))
}

/** Each sale of the run's leads: lead, rule, buyer, price, when. */
export async function salesOf(leadIds: string[]) {
  const { rows } = await db.rawQuery(
    `SELECT lead_id, routing_rule_id, buyer_id, price_cents, sold_at FROM sales
      WHERE lead_id = ANY(?::uuid[])`,
    [leadIds]
  )
  return rows as {
    lead_id: string
    routing_rule_id: string
    buyer_id: string
    price_cents: number
    sold_at: Date
  }[]
}

/**
 * Every cap of every rule against its sales, per period (UTC: the bench rules have no
 * schedule, so they count in the default zone), from Postgres: rows where a cap was exceeded.
 */
export async function capsOversold() {
  const { rows } = await db.rawQuery(`
    WITH periods AS (
      SELECT r.id, r.caps, p.name, p.cap_key, p.spend_key,
             date_trunc(p.name, s.sold_at AT TIME ZONE 'UTC') AS period,
             count(*)::int AS sold, sum(s.price_cents)::bigint AS spent
        FROM routing_rules r
        JOIN sales s ON s.routing_rule_id = r.id
        CROSS JOIN (VALUES ('hour', 'hourly', NULL), ('day', 'daily', 'daily_spend_cents'),
                           ('month', 'monthly', 'monthly_spend_cents')) AS p(name, cap_key, spend_key)
       WHERE r.caps <> '{}'::jsonb
       GROUP BY r.id, r.caps, p.name, p.cap_key, p.spend_key, period)
    SELECT id AS rule_id, name AS period, sold, (caps->>cap_key)::int AS cap, spent,
           (caps->>spend_key)::bigint AS spend_cap
      FROM periods
     WHERE sold > coalesce((caps->>cap_key)::int, 2147483647)
        OR spent > coalesce((caps->>spend_key)::bigint, 9223372036854775807)`)
  return rows as Record<string, unknown>[]
}

/** Per capped rule: its caps and what it sold in the run (to show the caps were reached). */
export async function capUse() {
  const { rows } = await db.rawQuery(`
    SELECT r.id, r.caps, count(s.id)::int AS sold, coalesce(sum(s.price_cents), 0)::int AS spent
      FROM routing_rules r LEFT JOIN sales s ON s.routing_rule_id = r.id
     WHERE r.caps <> '{}'::jsonb GROUP BY r.id, r.caps ORDER BY r.id`)
  return rows.map((row: any) => ({ caps: row.caps, sold: row.sold, spent_cents: row.spent }))
}

/**
 * Per accepted lead (its id and when its 201 arrived): ms until a buyer's system received the
 * post it accepted (`sold`), and until the first post of its sale arrived anywhere (`first`).
 */
export function postTimes(accepted: [string, number][], posts: Post[]) {
  const firstAt = new Map<string, number>()
  const soldAt = new Map<string, number>()
  for (const [, leadId, at, ok] of posts) {
    if (!leadId) continue
    if (!firstAt.has(leadId) || at < firstAt.get(leadId)!) firstAt.set(leadId, at)
    if (ok) soldAt.set(leadId, at)
  }
  const sold = new Map<string, number>()
  const first = new Map<string, number>()
  for (const [id, answeredAt] of accepted) {
    if (soldAt.has(id)) sold.set(id, soldAt.get(id)! - answeredAt)
    if (firstAt.has(id)) first.set(id, firstAt.get(id)! - answeredAt)
  }
  return { sold, first }
}

/** The sale attempts (pings and posts) of the run's leads, from each publisher's schema. */
export async function attemptsOf(publisherIds: string[], leadIds: string[]) {
  const attempts: {
    lead_id: string
    kind: string
    outcome: string | null
    reason: string | null
    duration_ms: number | null
    started_at: Date
  }[] = []
  for (const publisherId of publisherIds) {
    const { rows } = await db.rawQuery(
      `SELECT lead_id, kind, outcome, reason, duration_ms, started_at FROM ${TenancyService.schemaNameFor(publisherId)}.sale_attempts
        WHERE lead_id = ANY(?::uuid[])`,
      [leadIds]
    )
    attempts.push(...rows)
  }
  return attempts
}
