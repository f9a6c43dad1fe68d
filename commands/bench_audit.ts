import { execFile } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import os from 'node:os'
import { promisify } from 'node:util'
import pg from 'pg'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import db from '@adonisjs/lucid/services/db'
import auditConfig from '#config/audit'
import services from '#config/services'
import env from '#start/env'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { GENESIS_HASH, entryHash } from '#services/audit/audit_chain_service'
import AuditSealerService from '#services/audit/audit_sealer_service'
import AuditVerifierService from '#services/audit/audit_verifier_service'
import ApiKeyService from '#services/access/api_key_service'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { firstRow } from '#services/sql/first_row'
import { refusesDatabase } from '#bench/bench_database'

const STEPS = [
  { event: 'lead.received', from: null, to: 'received' },
  { event: 'consent.captured', from: 'received', to: 'consented' },
  { event: 'lead.validated', from: 'consented', to: 'validated' },
  { event: 'lead.accepted', from: 'validated', to: 'accepted' },
] as const

const PUBLISHERS = 8
const LEADS_PER_STATEMENT = 50_000

/**
 * Not a test: seeds a large audit log straight into Postgres (hashes
 * computed by SQL to the entry-hash definition, checked against the
 * application's own `entryHash`), seals it, then times whole-log
 * verification and a full CSV export through the HTTP API of a separate
 * server process, whose peak memory it reads from /proc.
 */
export default class BenchAudit extends BaseCommand {
  static commandName = 'bench:audit'
  static description = 'Benchmark audit sealing, whole-log verification and the streamed CSV export'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Audit entries to seed (four per lead)', default: 1_000_000 })
  declare entries: number

  @flags.boolean({
    description: 'Measure the log already in the database: no seeding, no sealing',
    default: false,
  })
  declare reuse: boolean

  @flags.boolean({
    description: 'Serve the export from the compiled build (node ace build), as deployed',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare build: boolean

  async run() {
    if (refusesDatabase(this, 'bench:audit')) return
    const leads = Math.ceil(this.entries / STEPS.length)
    let seed = { ms: 0 }
    let seal = { ms: 0, value: { sealed: 0 } }
    if (!this.reuse) {
      await new DatabaseSetupService().prepare({ fresh: true })
      seed = await timed(() => this.seed(leads))
      this.logger.info(
        `seeded ${leads * STEPS.length} entries of ${leads} leads in ${seconds(seed.ms)} s`
      )
      await this.checkSeedHashes()
      await this.analyze(['audit.entries', 'audit.chain_heads'])

      const sealer = new AuditSealerService()
      // Seeded timestamps are spread over the last hours: the lag bound is not what is measured here.
      seal = await timed(() => sealer.sealAll({ lagBoundMs: 7 * 86_400_000 }))
      this.logger.info(
        `sealed ${seal.value.sealed} entries in ${seconds(seal.ms)} s (${perSecond(seal.value.sealed, seal.ms)}/s)`
      )
      // As autovacuum would after a bulk load: the planner needs the tables' real sizes.
      await this.analyze(['audit.log_positions', 'audit.merkle_nodes'])
    }

    const verify = await timed(() => new AuditVerifierService().verifyLog())
    if (!verify.value.valid)
      throw new Error(`the seeded log does not verify: ${JSON.stringify(verify.value.broken_at)}`)
    this.logger.info(
      `verified ${verify.value.entries} entries in ${seconds(verify.ms)} s (${perSecond(verify.value.entries, verify.ms)}/s)`
    )

    const exported = await this.exportThroughServer()
    this.logger.info(
      `exported ${exported.rows} CSV rows in ${seconds(exported.ms)} s (${perSecond(exported.rows, exported.ms)}/s); ` +
        `server RSS ${exported.rssBeforeMb} MB idle, at most ${exported.small.peakRssMb} MB exporting ${exported.small.rows} rows, ` +
        `${exported.peakRssMb} MB exporting ${exported.rows}`
    )
    const offline = await this.verifyOffline(exported.file, exported.checkpointFile)
    await rm(exported.file)

    await this.report({
      entries: verify.value.entries,
      leads,
      seed_s: seconds(seed.ms),
      seal_s: seconds(seal.ms),
      seal_per_s: perSecond(seal.value.sealed, seal.ms),
      verify_s: seconds(verify.ms),
      verify_per_s: perSecond(verify.value.entries, verify.ms),
      export_rows: exported.rows,
      export_bytes: exported.bytes,
      export_s: seconds(exported.ms),
      export_rows_per_s: perSecond(exported.rows, exported.ms),
      export_peak_rss_mb: exported.peakRssMb,
      export_rss_before_mb: exported.rssBeforeMb,
      export_tenth_rows: exported.small.rows,
      export_tenth_rows_per_s: perSecond(exported.small.rows, exported.small.ms),
      export_tenth_peak_rss_mb: exported.small.peakRssMb,
      server_lifetime_peak_rss_mb: exported.lifetimePeakRssMb,
      offline_verify_s: offline.seconds,
      offline_verify_per_s: perSecond(exported.rows, offline.seconds * 1000),
      offline_verdict: offline.verdict,
    })
  }

  /** Four chained entries per lead, each hashed in SQL exactly as `entryHash` defines it. */
  async seed(leads: number) {
    const base = Date.now() - leads * 20
    for (let start = 0; start < leads; start += LEADS_PER_STATEMENT) {
      const end = Math.min(leads, start + LEADS_PER_STATEMENT) - 1
      await db.rawQuery(
        `WITH leads AS (
           SELECT i,
                  md5('bench-lead-' || i)::uuid AS lead_id,
                  md5('bench-publisher-' || (i % ${PUBLISHERS}))::uuid AS publisher_id,
                  'api_key:' || md5('bench-key-' || (i % ${PUBLISHERS}))::uuid AS actor,
                  to_char((to_timestamp(?::double precision / 1000) + i * interval '20 milliseconds') AT TIME ZONE 'UTC',
                          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
           FROM generate_series(?::int, ?::int) AS g(i)
         ),
         chained AS (
           SELECT l.*, h1, h2, h3, h4
           FROM leads l
           CROSS JOIN LATERAL (SELECT ${hashSql(0, `'${GENESIS_HASH}'`)} AS h1) a
           CROSS JOIN LATERAL (SELECT ${hashSql(1, 'h1')} AS h2) b
           CROSS JOIN LATERAL (SELECT ${hashSql(2, 'h2')} AS h3) c
           CROSS JOIN LATERAL (SELECT ${hashSql(3, 'h3')} AS h4) d
         ),
         inserted AS (
           INSERT INTO audit.entries (publisher_id, lead_id, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash, environment)
           SELECT publisher_id, lead_id, v.seq, v.event, ts::timestamptz, actor, v.status_from, v.status_to, v.prev_hash, v.hash, 'live'
           FROM chained
           CROSS JOIN LATERAL (VALUES
             ${STEPS.map((step, k) => `(${k + 1}, '${step.event}', ${step.from ? `'${step.from}'` : 'NULL'}, '${step.to}', ${k === 0 ? `'${GENESIS_HASH}'` : `h${k}`}, h${k + 1})`).join(',\n             ')}
           ) AS v(seq, event, status_from, status_to, prev_hash, hash)
           ORDER BY i, v.seq
           RETURNING lead_id, publisher_id, lead_seq, hash
         )
         INSERT INTO audit.chain_heads (lead_id, publisher_id, last_seq, last_hash)
         SELECT lead_id, publisher_id, lead_seq, hash FROM inserted WHERE lead_seq = ${STEPS.length}`,
        [base, start, end]
      )
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

  /** The SQL hashing must be the application's: a sample is recomputed with `entryHash`. */
  async checkSeedHashes() {
    const sample = await db.rawQuery(
      'SELECT * FROM audit.entries WHERE id IN (1, 2, 3, 4, 5, 6, 7, 8) ORDER BY id'
    )
    for (const row of sample.rows) {
      if (entryHash(row) !== row.hash)
        throw new Error(`seeded entry ${row.id} does not hash like entryHash`)
    }
  }

  async exportThroughServer() {
    const port = 3391
    const apiKeys = await this.app.container.make(ApiKeyService)
    const { secret } = await apiKeys.create(SYSTEM_OPERATOR, {
      name: 'bench-audit',
      permissions: ['read'],
      environment: 'live',
    })
    const keyPem = auditConfig.signingKey ?? (await readFile(auditConfig.devKeyPath, 'utf8'))
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port,
      build: this.build,
      env: {
        APP_KEY: env.get('APP_KEY').release(),
        DATABASE_URL: services.databaseUrl.href,
        AUDIT_SIGNING_KEY: keyPem,
      },
    })
    try {
      const baseUrl = `http://127.0.0.1:${port}`
      const rssBeforeMb = memoryOf(server.pid!).rssMb
      const headers = { authorization: `Bearer ${secret}` }
      const latest = await fetch(`${baseUrl}/v1/audit-logs/checkpoints/latest`, { headers })
      const checkpoint = await latest.json()
      const checkpointFile = this.app.makePath('tmp/bench/audit-checkpoint.json')
      const file = this.app.makePath('tmp/bench/audit-export.csv')
      await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
      await writeFile(checkpointFile, JSON.stringify(checkpoint))

      // A tenth of the log first, then all of it: if memory followed the export's size, the peaks would differ tenfold.
      const tenthRow = await firstRow(
        db.connection(),
        'SELECT ts FROM audit.entries ORDER BY id OFFSET ? LIMIT 1',
        [Math.floor(this.entries / 10)]
      )
      const tenth = tenthRow!.ts
      const small = await this.measure(
        server.pid!,
        `${baseUrl}/v1/audit-logs?format=csv&to=${new Date(tenth).toISOString()}`,
        headers,
        '/dev/null'
      )
      const full = await this.measure(
        server.pid!,
        `${baseUrl}/v1/audit-logs?format=csv`,
        headers,
        file
      )
      return {
        ...full,
        small,
        rssBeforeMb,
        lifetimePeakRssMb: memoryOf(server.pid!).hwmMb,
        file,
        checkpointFile,
      }
    } finally {
      await stopBenchServer(server)
    }
  }

  /** One export through the API into `file`: rows, bytes, time, and the server's highest RSS meanwhile. */
  async measure(pid: number, url: string, headers: Record<string, string>, file: string) {
    let peakRssMb = memoryOf(pid).rssMb
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, memoryOf(pid).rssMb)), 50)
    const started = performance.now()
    try {
      const response = await fetch(url, { headers })
      if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`)
      let bytes = 0
      let newlines = 0
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines++
          done(null, chunk)
        },
      })
      await pipeline(Readable.fromWeb(response.body as any), count, createWriteStream(file))
      const ms = performance.now() - started
      return { rows: newlines - 1, bytes, ms, peakRssMb: Math.max(peakRssMb, memoryOf(pid).rssMb) }
    } finally {
      clearInterval(sampler)
    }
  }

  /** The shipped verifier over the exported CSV and the signed checkpoint, as an auditor would run it. */
  async verifyOffline(file: string, checkpointFile: string) {
    const started = performance.now()
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bin/verify_audit.mjs', file, '--checkpoint', checkpointFile],
        {
          cwd: this.app.appRoot,
          maxBuffer: 16 * 1024 * 1024,
        }
      )
      return {
        seconds: seconds(performance.now() - started),
        verdict: stdout.trim().split('\n').at(-1)!,
      }
    } catch (error: any) {
      throw new Error(`the offline verifier rejected the export: ${error.stdout ?? error.message}`)
    }
  }

  async report(figures: Record<string, unknown>) {
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const summary = {
      date: new Date().toISOString(),
      machine,
      database: services.databaseName,
      ...figures,
    }
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(this.app.makePath('tmp/bench/audit.json'), JSON.stringify(summary, null, 2))
    this.ui
      .table()
      .head(['measure', 'figure', 'goal'])
      .row(['whole-log verification', `${figures.verify_per_s} entries/s`, '≥ 300,000 entries/s'])
      .row(['CSV export', `${figures.export_rows_per_s} rows/s`, '≥ 100,000 rows/s'])
      .row([
        'export server RSS: idle / peak (10% of the log) / peak (all)',
        `${figures.export_rss_before_mb} / ${figures.export_tenth_peak_rss_mb} / ${figures.export_peak_rss_mb} MB`,
        '< 256 MB',
      ])
      .row(['sealing', `${figures.seal_per_s} entries/s`, ''])
      .row(['offline verifier (CSV + checkpoint)', `${figures.offline_verify_per_s} rows/s`, ''])
      .render()
    this.logger.info('figures written to tmp/bench/audit.json')
  }
}

/** SQL for the hash of step k of a lead (columns lead_id, actor, ts in scope), after `prev`. */
function hashSql(k: number, prev: string) {
  const step = STEPS[k]
  const json =
    `'{"actor":"' || actor || '","event":"${step.event}","lead_id":"' || lead_id || '","lead_seq":${k + 1},` +
    `"prev_hash":"' || ${prev} || '","status_from":${step.from ? `"${step.from}"` : 'null'},"status_to":"${step.to}","ts":"' || ts || '"}'`
  return `encode(sha256(convert_to('leadgate-audit/v1' || chr(10) || ${json}, 'UTF8')), 'hex')`
}

async function timed<T>(work: () => Promise<T>) {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

function seconds(ms: number) {
  return Math.round(ms) / 1000
}

function perSecond(count: number, ms: number) {
  return Math.round(count / (ms / 1000))
}

/** Current and peak resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number) {
  const path = `/proc/${pid}/status`
  if (!existsSync(path)) return { rssMb: 0, hwmMb: 0 }
  const status = readFileSync(path, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024) }
}
