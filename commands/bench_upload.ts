import { type ChildProcess } from 'node:child_process'
import { openAsBlob } from 'node:fs'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import services from '#config/services'
import uploadsConfig from '#config/uploads'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import PublisherService from '#services/catalogue/publisher_service'
import ApiKeyService from '#services/access/api_key_service'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { benchCpuGroups, cpuSnapshot, cpuSpent } from '#bench/cpu'
import { writeBenchCsv } from '#bench/upload_file'
import { refusesDatabase } from '#bench/bench_database'
import { spawnBenchChild } from '#bench/bench_child'

const RULES = {
  required_fields: ['contact.email', 'contact.phone'],
  consent: { required: true, action: 'reject' },
  duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
}

/**
 * Not a test: a CSV of `--rows` leads (one in ten faulty) uploaded to the app
 * as `npm start` runs it, validated and accepted by a `queue:work` process.
 * Goals: validated in under 10 s, accepted in under 60 s, the web process
 * under 300 MB RSS throughout (sampled every 100 ms).
 */
export default class BenchUpload extends BaseCommand {
  static commandName = 'bench:upload'
  static description = 'Benchmark a 100,000-row CSV upload: validate, accept, web RSS'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Rows in the CSV', default: 100_000 })
  declare rows: number

  @flags.boolean({
    description: 'Measure the compiled build (node ace build) rather than the TypeScript sources',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare build: boolean

  @flags.boolean({ description: 'Write CPU profiles of server and worker to tmp/profile' })
  declare profile: boolean

  @flags.number({ description: 'Port of the app server (must be free)', default: 3392 })
  declare port: number

  @flags.number({ description: 'Milliseconds between two status polls', default: 100 })
  declare pollMs: number

  async run() {
    if (refusesDatabase(this, 'bench:upload')) return
    const port = this.port
    if (await portAnswers(port)) {
      this.logger.error(`port ${port} is taken (another server or test run?): pass --port`)
      this.exitCode = 1
      return
    }
    await new DatabaseSetupService().prepare({ fresh: true })
    const key = await this.seed()
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    const file = this.app.makePath('tmp/bench/upload.csv')
    const written = await writeBenchCsv(file, this.rows)
    const { size: bytes } = await stat(file)
    this.logger.info(
      `wrote ${written.rows} rows (${written.faulty} faulty), ${(bytes / 2 ** 20).toFixed(1)} MiB`
    )

    const changed = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '100000000',
      DATABASE_URL: services.databaseUrl.href,
      // Its own webhook queue: the default prefix is shared with every other worker on this Redis.
      WEBHOOK_QUEUE_PREFIX: `leadgate-${services.databaseName}`,
      UPLOAD_MAX_BYTES: String(Math.max(uploadsConfig.maxBytes, bytes)),
      UPLOAD_MAX_ROWS: String(Math.max(uploadsConfig.maxRows, this.rows)),
    }
    this.logger.info(`settings the benchmark sets: ${JSON.stringify(changed)}`)
    this.logger.info(`upload settings in force: ${JSON.stringify(batches())}`)
    const profileFlags = (name: string) =>
      this.profile
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${this.app.makePath('tmp/profile')}`,
            `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
          ]
        : []
    if (this.build) this.logger.info('building (node ace build)')
    const server = await this.startServer(port, changed, profileFlags('server'))
    const worker = this.startWorker(server.root, changed, profileFlags('worker'))
    const rss = sampleRss(server.pid!)
    try {
      const base = `http://127.0.0.1:${port}`
      await workerReady(worker)
      const cpu = benchCpuGroups(server.pid!)
      cpu.worker = (pid) => pid === worker.pid
      // Only this database's backends: other runs share the Postgres server (its WAL writer and checkpointer are left out).
      cpu.postgres = (_pid, command) =>
        command.startsWith('postgres') && command.includes(` ${services.databaseName} `)
      const poll = { base, key, everyMs: this.pollMs }
      const before = cpuSnapshot(cpu)
      const started = performance.now()
      rss.phase('receive')
      const form = new FormData()
      form.set('file', await openAsBlob(file), 'bench.csv')
      const answer = await fetch(`${base}/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      })
      const body = (await answer.json()) as any
      if (answer.status !== 202) throw new Error(`upload refused: ${JSON.stringify(body)}`)
      const received = performance.now() - started
      const afterReceive = cpuSnapshot(cpu)
      rss.phase('validate')
      const validated = await this.waitFor(poll, body.id, 'validated')
      const validatedMs = performance.now() - started
      const afterValidation = cpuSnapshot(cpu)
      rss.phase('accept')
      const acceptStart = performance.now()
      await fetch(`${base}/v1/uploads/${body.id}/accept`, {
        method: 'POST',
        headers: { 'authorization': `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      })
      const accepted = await this.waitFor(poll, body.id, 'accepted', 900_000)
      const acceptedMs = performance.now() - acceptStart
      const afterAcceptance = cpuSnapshot(cpu)
      rss.phase('routing')
      const routedMs = (await this.waitForRouting(body.publisher)) - acceptStart
      const afterRouting = cpuSnapshot(cpu)
      rss.phase('report')
      const report = await fetch(`${base}/v1/uploads/${body.id}/rows`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/csv' },
      })
      let reportBytes = 0
      for await (const chunk of report.body!) reportBytes += chunk.length
      rss.stop()
      const figures = {
        date: new Date().toISOString(),
        machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`,
        load_average_at_end: os.loadavg().map((load) => Math.round(load * 100) / 100),
        build: this.build,
        rows: this.rows,
        bytes,
        settings: { ...batches(), poll_ms: this.pollMs },
        received_ms: Math.round(received),
        validated_ms: Math.round(validatedMs),
        accepted_ms: Math.round(acceptedMs),
        routed_ms: Math.round(routedMs),
        counts: validated.counts,
        leads_created: accepted.leads_created,
        report_bytes: reportBytes,
        web_rss_mb_max: rss.maxMb(),
        web_rss_mb_by_phase: rss.byPhase(),
        cpu_ms: {
          receive: cpuSpent(before, afterReceive),
          validate: cpuSpent(afterReceive, afterValidation),
          accept: cpuSpent(afterValidation, afterAcceptance),
          routing_after_accepted: cpuSpent(afterAcceptance, afterRouting),
        },
        goals: {
          validated_under_10s: validatedMs < 10_000,
          accepted_under_60s: acceptedMs < 60_000,
          web_rss_under_300mb: rss.maxMb() < 300,
        },
      }
      this.ui
        .table()
        .head(['step', 'time', 'goal'])
        .row(['received (202)', `${(received / 1000).toFixed(1)} s`, ''])
        .row(['validated (from POST)', `${(validatedMs / 1000).toFixed(1)} s`, '< 10 s'])
        .row([
          'accepted (from accept): leads stored',
          `${(acceptedMs / 1000).toFixed(1)} s`,
          '< 60 s',
        ])
        .row(['routed (from accept): every lead routed', `${(routedMs / 1000).toFixed(1)} s`, ''])
        .row(['web RSS, max', `${rss.maxMb()} MB`, '< 300 MB'])
        .render()
      this.logger.info(JSON.stringify(figures, null, 2))
      await writeFile(this.app.makePath('tmp/bench/upload.json'), JSON.stringify(figures, null, 2))
      this.logger.info('figures written to tmp/bench/upload.json')
    } finally {
      rss.stop()
      // The worker first: it runs from the server's build copy, which goes with the server.
      await stopBenchServer(worker)
      await stopBenchServer(server)
    }
  }

  async seed() {
    const publishers = await this.app.container.make(PublisherService)
    const apiKeys = await this.app.container.make(ApiKeyService)
    const publisher = await publishers.create(SYSTEM_OPERATOR, {
      slug: 'bench-upload',
      name: 'Bench uploader',
      contact_email: 'bench-upload@bench.example',
      country: 'NL',
    })
    publisher.merge({ status: 'live', deliveryMethods: ['upload'], qualityRules: RULES as any })
    await publisher.save()
    const { secret } = await apiKeys.create(SYSTEM_OPERATOR, {
      name: 'bench',
      publisher_id: publisher.id,
      permissions: ['read', 'submit'],
      environment: 'live',
    })
    return secret
  }

  /**
   * The server as `npm start` runs it. The build shares the tree with other
   * engineers' work in progress (a page being saved, a type error in a file
   * being written), so a failed build is tried again, twice, a minute apart.
   */
  async startServer(port: number, changed: Record<string, string>, nodeFlags: string[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startBenchServer({
          appRoot: this.app.appRoot,
          port,
          build: this.build,
          nodeFlags,
          env: { APP_KEY: env.get('APP_KEY').release(), WEB_CONCURRENCY: '1', ...changed },
        })
      } catch (error) {
        if (attempt >= 3 || !String(error).includes('ace build')) throw error
        this.logger.warning(`node ace build failed (attempt ${attempt}); trying again in a minute`)
        await new Promise((resolve) => setTimeout(resolve, 60_000))
      }
    }
  }

  /** `node ace queue:work` as deployed: from the server's folder (its build, or the sources). */
  startWorker(cwd: string, changed: Record<string, string>, nodeFlags: string[]): ChildProcess {
    const loader = this.build ? [] : ['--import', '@poppinss/ts-exec']
    const worker = spawnBenchChild([...nodeFlags, ...loader, 'ace.js', 'queue:work'], {
      cwd,
      env: { ...process.env, APP_KEY: env.get('APP_KEY').release(), ...changed },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    worker.stdout!.pipe(process.stdout)
    return worker
  }

  async waitFor(
    poll: { base: string; key: string; everyMs: number },
    id: string,
    status: string,
    timeoutMs = 120_000
  ) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const answer = await fetch(`${poll.base}/v1/uploads/${id}`, {
        headers: { authorization: `Bearer ${poll.key}` },
      })
      const body = (await answer.json()) as any
      if (body.status === status) return body
      await new Promise((resolve) => setTimeout(resolve, poll.everyMs))
    }
    throw new Error(`upload ${id} not ${status} within ${timeoutMs} ms`)
  }

  /**
   * When routing has caught up: every accepted live lead of the upload's
   * publisher tried once (`routed_at`), read from Postgres every 250 ms.
   * Answers the moment (performance.now()).
   */
  async waitForRouting(publisher: string, timeoutMs = 900_000) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const { rows } = await db.rawQuery(
        `SELECT count(*)::int AS waiting FROM lead_facts f JOIN publishers p ON p.id = f.publisher_id
         WHERE p.slug = ? AND f.status = 'accepted' AND f.environment = 'live' AND f.routed_at IS NULL`,
        [publisher]
      )
      if (rows[0].waiting === 0) return performance.now()
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    throw new Error(`routing did not catch up within ${timeoutMs} ms`)
  }
}

/** Resolves once the worker says it runs: its boot is not part of the upload's figures. */
function workerReady(worker: ChildProcess) {
  return new Promise<void>((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-1000)
      if (!seen.includes('worker running')) return
      worker.stdout!.off('data', onData)
      resolve()
    }
    worker.stdout!.on('data', onData)
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it ran`)))
  })
}

/** The batch sizes in force (config/uploads.ts), as the worker and the server read them. */
function batches() {
  return {
    receiveBatch: uploadsConfig.receiveBatch,
    validateBatch: uploadsConfig.validateBatch,
    acceptBatch: uploadsConfig.acceptBatch,
    acceptConcurrency: uploadsConfig.acceptConcurrency,
  }
}

/**
 * The web process's resident memory, read from /proc every 100 ms: the
 * maximum overall and per phase of the run.
 */
function sampleRss(pid: number) {
  let phase = 'start'
  const maxima = new Map<string, number>()
  const timer = setInterval(() => {
    const current = phase
    readFile(`/proc/${pid}/status`, 'utf8')
      .then((status) => {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
        maxima.set(current, Math.max(maxima.get(current) ?? 0, kb))
      })
      .catch(() => {})
  }, 100)
  const mb = (kb: number) => Math.round(kb / 1024)
  return {
    phase: (name: string) => {
      phase = name
    },
    maxMb: () => mb(Math.max(0, ...maxima.values())),
    byPhase: () => Object.fromEntries([...maxima].map(([name, kb]) => [name, mb(kb)])),
    stop: () => clearInterval(timer),
  }
}

/** Whether something already listens on the port (the bench would otherwise measure it). */
async function portAnswers(port: number) {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })
    return true
  } catch {
    return false
  }
}
