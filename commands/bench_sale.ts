import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { refusesDatabase } from '#bench/bench_database'
import { summarise } from '#bench/routing_table'
import {
  type Post,
  SaleBench,
  attemptsOf,
  capUse,
  capsOversold,
  hostLoad,
  machine,
  outcomes,
  postTimes,
  salesOf,
} from '#bench/sale_bench'

const SYSTEMS = 6
const DELAYS_MS = [20, 50, 80, 110, 140, 170, 200]
const REJECT_RATIO = 0.05
const PRICE_CENTS = 1500

/**
 * Not a test: leads sold into buyers' own systems, as deployed. Six buyers' systems (local HTTP
 * servers answering posts in 20–200 ms, rejecting 5 %) behind `http` destinations, routing rules
 * naming them with hourly, daily and spend caps that fill during the run and two uncapped rules
 * below them; leads at a fixed rate through POST /v1/leads. Measures the 201 → the buyer's
 * system receiving the post that sold the lead, CPU per sold lead, and that no cap was oversold.
 */
export default class BenchSale extends BaseCommand {
  static commandName = 'bench:sale'
  static description =
    "Benchmark selling into buyers' systems: 201 → post received, CPU per sold lead, caps"
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Leads per second', default: 300 })
  declare rate: number

  @flags.number({ description: 'Seconds of load', default: 30 })
  declare duration: number

  async run() {
    if (refusesDatabase(this, 'bench:sale')) return
    const bench = new SaleBench(this, 3398)
    try {
      await bench.start(
        Array.from({ length: SYSTEMS }, () => ({ delaysMs: DELAYS_MS, rejectRatio: REJECT_RATIO }))
      )
      await this.measure(bench)
    } finally {
      await bench.stop()
    }
  }

  private async measure(bench: SaleBench) {
    const label = await bench.label('sale')
    const publishers = await bench.publishers(4, label.slug)
    const total = this.rate * this.duration
    // The capped rules come first; each fills within the run, and the rest falls to the last two.
    const tenth = Math.max(1, Math.round(total / 10))
    const caps = [
      { daily: tenth },
      { hourly: tenth },
      { daily_spend_cents: tenth * PRICE_CENTS },
      { monthly: tenth, monthly_spend_cents: tenth * PRICE_CENTS * 2 },
      {},
      {},
    ]
    for (let i = 0; i < SYSTEMS; i++) {
      const { buyerId, destinationId } = await bench.buyerWithDestination(i)
      await bench.api('POST', '/v1/routing-rules', {
        buyer_id: buyerId,
        destination_id: destinationId,
        labels: [label.slug],
        price_cents: PRICE_CENTS,
        payout_cents: 900,
        currency: 'EUR',
        caps: caps[i],
        priority: i < 4 ? 10 : 0,
      })
    }
    this.logger.info(
      `set up through the API: ${SYSTEMS} buyers, each an http destination (answers in ${DELAYS_MS.join('/')} ms, ${REJECT_RATIO * 100} % rejected) and a rule; caps ${JSON.stringify(caps)}`
    )
    this.logger.info('warming up: 3 s at 30 leads/s')
    const warm = await bench.load(publishers, 30, 3)
    await bench.settle(
      warm.accepted.map(([id]) => id),
      30_000
    )
    await bench.report()

    this.logger.info(`measuring: ${this.duration} s at ${this.rate} leads/s`)
    const load = await bench.load(publishers, this.rate, this.duration)
    const leadIds = load.accepted.map(([id]) => id)
    const unsettled = await bench.settle(leadIds, 60_000)
    const cpu = bench.cpuSince(load)
    const { posts } = await bench.report()
    const sales = await salesOf(leadIds)
    const attempts = await attemptsOf(
      publishers.map(({ id }) => id),
      leadIds
    )
    const figures = summariseSale(load.accepted, posts, attempts, sales.length + unsettled)
    const oversold = await capsOversold()
    const perSold = (ms: number) => Number((ms / Math.max(1, sales.length)).toFixed(3))
    const summary = {
      date: new Date().toISOString(),
      machine: machine(),
      load_average_1m: hostLoad(load),
      rate: this.rate,
      duration_s: this.duration,
      buyers: SYSTEMS,
      answer_delays_ms: DELAYS_MS,
      reject_ratio: REJECT_RATIO,
      intake: load.figures,
      accepted: leadIds.length,
      sold: sales.length,
      // Over the seconds the load took to be answered (longer than --duration when intake lags).
      sold_per_s: Number(
        ((sales.length * load.figures.accepted_per_s) / Math.max(1, leadIds.length)).toFixed(1)
      ),
      outcomes: await outcomes(leadIds),
      still_selling_at_end: unsettled,
      posts_received: posts.length,
      ...figures,
      cpu_ms: cpu,
      cpu_ms_per_sold_lead: {
        ...Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, perSold(ms)])),
        'web + worker + postgres': perSold(cpu.web + cpu.worker + cpu.postgres),
      },
      caps: await capUse(),
      caps_oversold: oversold,
    }
    this.print(summary)
    await bench.write('sale', summary)
    if (oversold.length > 0) this.exitCode = 1
  }

  private print(summary: Record<string, any>) {
    const show = (ms: number | null) => (ms === null ? 'lost' : String(ms))
    const table = this.ui
      .table()
      .head(['201 →', 'leads/s accepted', 'count', 'lost', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'])
    for (const [name, figures] of [
      ['post that sold it received', summary.accepted_to_sold_post],
      ['first post received', summary.accepted_to_first_post],
      ['  of which until the worker routes it', summary.accepted_to_routing],
      ['  of which routing and the post', summary.routing_to_first_post],
    ])
      table.row([
        name,
        summary.intake.accepted_per_s.toFixed(0),
        String(figures.count),
        String(figures.lost),
        show(figures.p50_ms),
        show(figures.p95_ms),
        show(figures.p99_ms),
        show(figures.max_ms),
      ])
    table.render()
    this.logger.info(
      `intake answers ${JSON.stringify(summary.intake.statuses)} (p99 ${summary.intake.p99_ms?.toFixed(0)} ms, errors ${summary.intake.errors}); outcomes ${JSON.stringify(summary.outcomes)}; sold ${summary.sold} (${summary.sold_per_s}/s)`
    )
    this.logger.info(
      `CPU ms per sold lead: ${JSON.stringify(summary.cpu_ms_per_sold_lead)}; host load average (1 min) ${JSON.stringify(summary.load_average_1m)}`
    )
    this.logger.info(
      `caps: ${JSON.stringify(summary.caps)}; oversold: ${summary.caps_oversold.length === 0 ? 'none' : JSON.stringify(summary.caps_oversold)}`
    )
    this.logger.info('goal: 201 → post received p99 < 250 ms at 300 leads/s')
  }
}

/**
 * Per accepted lead, from its 201 to the buyer's system receiving the post it accepted, and to
 * the first post of its sale. A lead sold (in Postgres) whose accepted post was never seen, or
 * still selling at the end, is lost: counted slower than any. Where the time goes, split at the
 * first attempt's `started_at` (the time the worker took the lead up for routing): the queue
 * before it, and the routing transaction, its commit and the post after it.
 */
function summariseSale(
  accepted: [string, number][],
  posts: Post[],
  attempts: Awaited<ReturnType<typeof attemptsOf>>,
  expected: number
) {
  const { sold, first } = postTimes(accepted, posts)
  const started = new Map<string, number>()
  for (const { lead_id: leadId, started_at: at } of attempts)
    started.set(leadId, Math.min(started.get(leadId) ?? Infinity, at.getTime()))
  const toStart: number[] = []
  const transit: number[] = []
  for (const [leadId, answeredAt] of accepted) {
    const at = started.get(leadId)
    if (at === undefined || !first.has(leadId)) continue
    toStart.push(at - answeredAt)
    transit.push(first.get(leadId)! - (at - answeredAt))
  }
  return {
    accepted_to_sold_post: summarise([...sold.values()], Math.max(0, expected - sold.size)),
    accepted_to_first_post: summarise([...first.values()], accepted.length - first.size),
    accepted_to_routing: summarise(toStart),
    routing_to_first_post: summarise(transit),
  }
}
