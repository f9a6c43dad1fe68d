import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import env from '#start/env'
import services from '#config/services'
import DatabaseSetupService from '#services/platform/database_setup_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import PublisherService from '#services/catalogue/publisher_service'
import FormService from '#services/forms/form_service'
import { startBenchServer, stopBenchServer } from '#bench/app_server'
import { runLoadGenerator } from '#bench/load_generator'
import { refusesDatabase } from '#bench/bench_database'

/** What the benchmark changes on the server, printed with its figures. */
const SETTINGS = {
  // Every request comes from one address: the per-address limit would answer 429 after 20.
  FORMS_RATE_LIMIT: '100000000',
  // Tokens are fetched once before the run; the bot screen's fill time is not what is measured.
  FORMS_MIN_FILL_MS: '0',
}

/**
 * Not a test: hosted form page views and submissions at a fixed rate against
 * the app as `npm start` runs it, each submission a lead through intake.
 */
export default class BenchForms extends BaseCommand {
  static commandName = 'bench:forms'
  static description = 'Benchmark hosted form views and submissions at a fixed rate'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Requests per second', default: 100 })
  declare rate: number

  @flags.number({ description: 'Seconds per measured step', default: 20 })
  declare duration: number

  async run() {
    if (refusesDatabase(this, 'bench:forms')) return
    const port = 3395
    await new DatabaseSetupService().prepare({ fresh: true })
    const slug = await this.seed()
    this.logger.info(`settings changed for the run: ${JSON.stringify(SETTINGS)}`)
    this.logger.info('building (node ace build)')
    const server = await startBenchServer({
      appRoot: this.app.appRoot,
      port,
      build: true,
      env: {
        APP_KEY: env.get('APP_KEY').release(),
        DATABASE_URL: services.databaseUrl.href,
        ...SETTINGS,
      },
    })
    try {
      const baseUrl = `http://127.0.0.1:${port}`
      const step = (name: string, duration: number) => ({
        name,
        rate: this.rate,
        duration,
        connections: Math.max(8, Math.ceil(this.rate / 4)),
      })
      this.logger.info('warming up (5 s)')
      await this.load({ baseUrl, slug, steps: [step('views', 5), step('submissions', 5)] })
      this.logger.info(
        `measuring: ${this.duration} s of views, then of submissions, at ${this.rate}/s`
      )
      const [views, submissions] = await this.load({
        baseUrl,
        slug,
        steps: [step('views', this.duration), step('submissions', this.duration)],
      })
      await this.report(views, submissions)
    } finally {
      await stopBenchServer(server)
    }
  }

  async seed() {
    const publishers = await this.app.container.make(PublisherService)
    const forms = await this.app.container.make(FormService)
    const publisher = await publishers.create(SYSTEM_OPERATOR, {
      slug: 'bench-forms',
      name: 'Bench forms',
      contact_email: 'bench-forms@bench.example',
      country: 'NL',
    })
    publisher.merge({
      status: 'live',
      deliveryMethods: ['form'],
      qualityRules: {
        required_fields: ['contact.email', 'contact.phone'],
        duplicates: { window_days: 30, keys: ['contact.email'], action: 'reject' },
      } as any,
    })
    await publisher.save()
    const form = await forms.create(SYSTEM_OPERATOR, {
      publisher_id: publisher.id,
      slug: 'bench-form',
      title: 'Bench form',
      fields: [
        { name: 'name', label: 'Name', required: true },
        { name: 'email', label: 'E-mail', required: true },
        { name: 'phone', label: 'Phone', required: true },
        { name: 'postal_code', label: 'Postal code', required: false },
      ],
      consent_text: 'I agree that Bench may contact me about my request by phone and e-mail.',
    })
    return form.slug
  }

  load(plan: Record<string, unknown>) {
    return runLoadGenerator(this.app.appRoot, 'bench/forms_load.mjs', plan)
  }

  async report(views: any, submissions: any) {
    const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'cpu'}`
    const table = this.ui
      .table()
      .head(['step', 'ok/s', 'p50 ms', 'p95 ms', 'p99 ms', 'statuses', 'errors'])
    for (const step of [views, submissions]) {
      table.row([
        `${step.mode} at ${step.target_rate}/s`,
        step.accepted_per_s.toFixed(1),
        step.p50_ms?.toFixed(1) ?? '-',
        step.p95_ms?.toFixed(1) ?? '-',
        step.p99_ms?.toFixed(1) ?? '-',
        JSON.stringify(step.statuses),
        String(step.errors),
      ])
    }
    table.render()
    this.logger.info(
      'goal: submissions at 100/s with p99 under 100 ms (303 = stored lead, 422 = page back to fix)'
    )
    const summary = {
      date: new Date().toISOString(),
      machine,
      settings: SETTINGS,
      views,
      submissions,
    }
    await mkdir(this.app.makePath('tmp/bench'), { recursive: true })
    await writeFile(this.app.makePath('tmp/bench/forms.json'), JSON.stringify(summary, null, 2))
    this.logger.info('figures written to tmp/bench/forms.json')
  }
}
