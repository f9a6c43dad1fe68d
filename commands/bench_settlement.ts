import { readFileSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import pg from 'pg'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import services from '#config/services'
import ApiKeyService from '#services/access/api_key_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { foldLedger } from '#services/money/ledger'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import {
  SETTLEMENT_PRICE_CENTS,
  SETTLEMENT_PAYOUT_CENTS,
  seedSettlement,
} from '#bench/settlement_seed'
import { refusesDatabase } from '#bench/bench_database'

/**
 * Not a test: a payout run over a million final sales of a thousand
 * publishers, then a publisher's settlement view with the ledger that
 * leaves, both through the HTTP API of the compiled server (as `npm start`
 * runs it). Seeds straight into Postgres: the facts, the sales, the ledger
 * and the settlement state a million matched and accepted leads would have.
 */
export default class BenchSettlement extends BaseCommand {
  static commandName = 'bench:settlement'
  static description = 'Benchmark a payout run over 1,000,000 sales and the settlement view'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Final sales to seed', default: 1_000_000 })
  declare leads: number

  @flags.number({ description: 'Publishers they are spread over', default: 1_000 })
  declare publishers: number

  @flags.number({ description: 'GET /v1/settlement requests measured', default: 2_000 })
  declare requests: number

  @flags.number({ description: 'Port of the measured server (must be free)', default: 3463 })
  declare port: number

  @flags.boolean({
    description:
      'Measure the sales already seeded (a previous run): the payouts are removed, nothing is reseeded',
    default: false,
  })
  declare reuse: boolean

  async run() {
    if (refusesDatabase(this, 'bench:settlement')) return
    const port = this.port
    if (await answers(port)) {
      this.logger.error(`port ${port} is taken (another engineer's server?): pass --port`)
      this.exitCode = 1
      return
    }
    const load: { before: number[]; after?: number[]; others_seen: string[] } = {
      before: os.loadavg(),
      others_seen: otherWork(),
    }
    if (load.others_seen.length > 0) {
      this.logger.warning(`not a quiet machine: ${load.others_seen.join('; ')}`)
    }
    const settings = {
      leads: this.leads,
      publishers: this.publishers,
      price_cents: SETTLEMENT_PRICE_CENTS,
      payout_cents: SETTLEMENT_PAYOUT_CENTS,
      ledger_rows_per_lead: 3,
      schedule: 'weekly, minimum 0',
      requests: this.requests,
    }
    this.logger.info(`settings: ${JSON.stringify(settings)}`)
    if (!this.reuse) await new DatabaseSetupService().prepare({ fresh: true })
    // Built before seeding: a build that fails should not cost the minutes of a seed.
    this.logger.info('building (node ace build)')
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port,
      build: true,
      env: { APP_KEY: env.get('APP_KEY').release(), DATABASE_URL: services.databaseUrl.href },
    })
    try {
      const seed = this.reuse
        ? await timed(() => this.unpay())
        : await timed(() => seedSettlement(this.leads, this.publishers))
      if (!this.reuse) this.logger.info(`seeded ${this.leads} final sales in ${seconds(seed.ms)} s`)
      // As the settlement clock would: the maintained balances hold everything seeded.
      await foldLedger(db.connection())
      // As autovacuum would after a bulk load: the planner needs the tables' real sizes.
      await this.analyze([
        'lead_facts',
        'sales',
        'ledger_entries',
        'ledger_balances',
        'ledger_folds',
        'publishers',
        'payouts',
        'payout_lines',
      ])
      const ledgerRows = await scalar(db.from('ledger_entries').count('* as n'))

      const apiKeys = await this.app.container.make(ApiKeyService)
      const operator = await apiKeys.create(SYSTEM_OPERATOR, {
        name: 'bench-settlement-operator',
        permissions: ['read', 'submit'],
        environment: 'live',
      })
      const publisher = await apiKeys.create(SYSTEM_OPERATOR, {
        name: 'bench-settlement-publisher',
        publisher_id: seed.value.measuredPublisherId,
        permissions: ['read'],
        environment: 'live',
      })
      const baseUrl = `http://127.0.0.1:${port}`
      const groups = benchCpuGroups(server.pid!)
      const cpuBefore = cpuSnapshot(groups)
      this.logger.info('POST /v1/payout-runs (every label, its last full week)')
      const run = await timed(() => post(`${baseUrl}/v1/payout-runs`, operator.secret, {}))
      const cpu = cpuSpent(cpuBefore, cpuSnapshot(groups))
      if (run.value.status !== 202) throw new Error(`payout run: ${JSON.stringify(run.value)}`)
      const made = await this.checkRun(run.value.body)
      this.logger.info(
        `payout run: ${made.payouts} payouts, ${made.lines} lines in ${seconds(run.ms)} s`
      )
      // The next turn of the clock: nothing to fold but what a run wrote (nothing, until paid).
      await foldLedger(db.connection())
      const view = await this.measureView(baseUrl, publisher.secret)
      load.after = os.loadavg()
      load.others_seen.push(...otherWork().filter((w) => !load.others_seen.includes(w)))
      await this.report({
        settings: { ...settings, reused: this.reuse },
        seed_s: this.reuse ? null : seconds(seed.ms),
        ledger_rows: ledgerRows,
        run_s: seconds(run.ms),
        run_payouts: made.payouts,
        run_lines: made.lines,
        run_amount_cents: made.amountCents,
        run_cpu_ms: cpu,
        settlement_view: view,
        load_average: load,
      })
    } finally {
      await stopBenchServer(server)
    }
  }

  /** `--reuse`: back to the seeded state, every sale final and on no payout. */
  async unpay() {
    await db.rawQuery('TRUNCATE payout_lines, payouts, payout_runs')
    await db.rawQuery('UPDATE lead_facts SET payout_id = NULL WHERE payout_id IS NOT NULL')
    await db.rawQuery('UPDATE sales SET payout_id = NULL WHERE payout_id IS NOT NULL')
    const [first] = await db.from('publishers').orderBy('slug').select('id').limit(1)
    return { measuredPublisherId: first.id as string }
  }

  /** The run paid every publisher exactly its sales: the answer, and the rows, say so. */
  async checkRun(body: any) {
    const payouts = await scalar(db.from('payouts').count('* as n'))
    const lines = await scalar(db.from('payout_lines').count('* as n'))
    // A run takes a sale by listing it (docs/money.md): every seeded sale on exactly one line.
    const unpaid = await scalar(
      db
        .from('lead_facts as f')
        .whereNotExists((earning) =>
          earning
            .from('payout_lines as l')
            .whereRaw('l.lead_id = f.lead_id')
            .where('l.kind', 'earning')
        )
        .count('* as n')
    )
    const amountCents = await scalar(db.from('payouts').sum('amount_cents as n'))
    if (
      body.payouts !== this.publishers ||
      payouts !== this.publishers ||
      lines !== this.leads ||
      unpaid !== 0 ||
      amountCents !== this.leads * SETTLEMENT_PAYOUT_CENTS
    ) {
      throw new Error(
        `unexpected run: ${JSON.stringify({ answer: body.payouts, payouts, lines, unpaid, amountCents })}`
      )
    }
    return { payouts, lines, amountCents }
  }

  /** Sequential requests (one at a time), after a warm-up: the latency of the view itself. */
  async measureView(baseUrl: string, key: string) {
    const get = () =>
      fetch(`${baseUrl}/v1/settlement`, { headers: { authorization: `Bearer ${key}` } })
    for (let i = 0; i < 200; i++) {
      const answer = await get()
      await answer.arrayBuffer()
    }
    const times: number[] = []
    let body: any
    for (let i = 0; i < this.requests; i++) {
      const started = performance.now()
      const answer = await get()
      body = await answer.json()
      times.push(performance.now() - started)
      if (answer.status !== 200) throw new Error(`settlement view: ${JSON.stringify(body)}`)
    }
    times.sort((a, b) => a - b)
    const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))] * 100) / 100
    return {
      requests: times.length,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      p99_ms: at(0.99),
      max_ms: at(1),
      body: {
        payable_cents: body.payable_cents,
        pending_cents: body.pending_cents,
        accepted_leads: body.accepted_leads,
      },
    }
  }

  async analyze(tables: string[]) {
    const url = new URL(services.adminDatabaseUrl.href)
    url.pathname = `/${services.databaseName}`
    const admin = new pg.Client({ connectionString: url.href })
    await admin.connect()
    try {
      for (const table of tables) await admin.query(`VACUUM ANALYZE ${table}`)
    } finally {
      await admin.end()
    }
  }

  async report(summary: Record<string, any>) {
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const view = summary.settlement_view
    this.ui
      .table()
      .head(['figure', 'result', 'goal'])
      .row([
        `payout run: ${summary.run_payouts} payouts of ${summary.run_lines} sales`,
        `${summary.run_s} s`,
        '< 60 s',
      ])
      .row([
        `GET /v1/settlement, ${summary.ledger_rows} ledger rows: p50 / p95 / p99`,
        `${view.p50_ms} / ${view.p95_ms} / ${view.p99_ms} ms`,
        'p95 < 20 ms',
      ])
      .row(['seeding (not measured against a goal)', `${summary.seed_s ?? 'reused'} s`, ''])
      .render()
    this.logger.info(
      `load average before ${summary.load_average.before.map((n: number) => n.toFixed(2)).join(' ')}, after ${summary.load_average.after.map((n: number) => n.toFixed(2)).join(' ')}; ` +
        `other test or benchmark runs seen: ${summary.load_average.others_seen.length || 'none'}`
    )
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(
      this.app.makePath('tmp/bench/settlement.json'),
      JSON.stringify({ date: new Date().toISOString(), machine, ...summary }, null, 2)
    )
    this.logger.info('figures written to tmp/bench/settlement.json')
  }
}

/**
 * Test suites and other benchmarks running beside this one (other engineers share the
 * machine): their command lines, so the figures say whether the machine was quiet.
 */
function otherWork() {
  if (os.platform() !== 'linux') return []
  const found: string[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      if (/ace(\.js)? (test|bench:)/.test(command) && !command.includes('bench:settlement')) {
        found.push(command.slice(0, 80))
      }
    } catch {
      // The process ended while we read it.
    }
  }
  return found
}

/** Whether something already listens on the port: the bench would measure someone else's server. */
async function answers(port: number) {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })
    return true
  } catch {
    return false
  }
}

/**
 * A POST without a client-side timeout (fetch gives up on headers after 300 s): on a busy
 * machine a run may take longer, and what is measured is how long it takes.
 */
function post(url: string, key: string, body: unknown) {
  const payload = JSON.stringify(body)
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'authorization': `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk) => chunks.push(chunk))
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
          })
        )
        answer.on('error', reject)
      }
    )
    request.on('error', reject)
    request.end(payload)
  })
}

/** The one number a count or sum answers. */
async function scalar(query: PromiseLike<{ n: string | number | null }[]>) {
  const [row] = await query
  return Number(row?.n ?? 0)
}

async function timed<T>(work: () => Promise<T>) {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

function seconds(ms: number) {
  return Math.round(ms) / 1000
}
