import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { refusesDatabase } from '#bench/bench_database'
import { summarise } from '#bench/routing_table'
import {
  type BuyerSystemPlan,
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

/** Twenty buyers' systems: a third answering in 20 ms, a third in 100 ms, the rest in 400 ms. */
const SYSTEMS: BuyerSystemPlan[] = Array.from({ length: 20 }, (_, i) => ({
  delaysMs: [i < 7 ? 20 : i < 14 ? 100 : 400],
  rejectRatio: 0.05,
  pingTimeoutRatio: 0.01,
  bid: [500 + i * 50, 3000],
}))
const TMAX_MS = 750
const PING_TIMEOUT_MS = 500
/** Rules of the first buyers are capped (volume or spend); the rest are not. */
const CAPPED = 6

/**
 * Not a test: ping-post auctions, as deployed. Twenty buyers' systems (local HTTP servers) bid on
 * pings in 20, 100 or 400 ms, leave 1 % of pings unanswered and reject 5 % of posts; each is an
 * `http` destination with a ping section and a `ping_post` rule, some capped, under a label whose
 * sale waits `tmax_ms` 750. Leads at a fixed rate through POST /v1/leads, each one auction.
 * Measures the 201 → the winner's system receiving the post (end to end), Leadgate's own share of
 * it (end to end minus the time spent waiting for buyers, from the sale attempts' durations),
 * that no ping carried contact details (the buyers' systems check), and that no cap was oversold.
 */
export default class BenchAuction extends BaseCommand {
  static commandName = 'bench:auction'
  static description =
    'Benchmark ping-post auctions with 20 buyers: end to end, Leadgate overhead, no contact in pings, caps'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Auctions (leads) per second', default: 30 })
  declare rate: number

  @flags.number({ description: 'Seconds of load', default: 60 })
  declare duration: number

  async run() {
    if (refusesDatabase(this, 'bench:auction')) return
    const bench = new SaleBench(this, 3399)
    try {
      await bench.start(SYSTEMS)
      await this.measure(bench)
    } finally {
      await bench.stop()
    }
  }

  private async measure(bench: SaleBench) {
    const label = await bench.label('auction', { tmax_ms: TMAX_MS })
    const publishers = await bench.publishers(4, label.slug)
    const share = Math.max(1, Math.round((this.rate * this.duration) / 30))
    const caps = (i: number) =>
      i >= CAPPED ? {} : i % 2 === 0 ? { daily: share } : { daily_spend_cents: share * 1500 }
    for (const [i] of SYSTEMS.entries()) {
      const { buyerId, destinationId } = await bench.buyerWithDestination(i, {
        timeoutMs: PING_TIMEOUT_MS,
      })
      await bench.api('POST', '/v1/routing-rules', {
        buyer_id: buyerId,
        destination_id: destinationId,
        labels: [label.slug],
        mode: 'ping_post',
        price_cents: 0,
        payout_cents: 0,
        payout_share_percent: 60,
        currency: 'EUR',
        caps: caps(i),
      })
    }
    this.logger.info(
      `set up through the API: label sale {"tmax_ms":${TMAX_MS}}; ${SYSTEMS.length} buyers, each an http destination with a ping (timeout_ms ${PING_TIMEOUT_MS}) and a ping_post rule; pings answered in 20 ms (7 buyers), 100 ms (7), 400 ms (6), 1 % never in time, 5 % of posts rejected; caps on ${CAPPED} rules, e.g. ${JSON.stringify(caps(0))}, ${JSON.stringify(caps(1))}`
    )
    this.logger.info('warming up: 3 s at 10 leads/s')
    const warm = await bench.load(publishers, 10, 3)
    await bench.settle(
      warm.accepted.map(([id]) => id),
      30_000
    )
    await bench.report()

    this.logger.info(`measuring: ${this.duration} s at ${this.rate} auctions/s`)
    const load = await bench.load(publishers, this.rate, this.duration)
    const leadIds = load.accepted.map(([id]) => id)
    const unsettled = await bench.settle(leadIds, 60_000)
    const cpu = bench.cpuSince(load)
    const { posts, pings } = await bench.report()
    const sales = await salesOf(leadIds)
    const attempts = await attemptsOf(
      publishers.map(({ id }) => id),
      leadIds
    )
    const figures = auctionFigures(
      load.accepted,
      postTimes(load.accepted, posts).sold,
      attempts,
      sales.length + unsettled
    )
    const oversold = await capsOversold()
    const perSold = (ms: number) => Number((ms / Math.max(1, sales.length)).toFixed(3))
    const pingOutcomes: Record<string, number> = {}
    for (const { kind, outcome, reason } of attempts) {
      const key = `${outcome ?? 'open'}${reason ? `:${reason}` : ''}`
      if (kind === 'ping') pingOutcomes[key] = (pingOutcomes[key] ?? 0) + 1
    }
    const summary = {
      date: new Date().toISOString(),
      machine: machine(),
      load_average_1m: hostLoad(load),
      rate: this.rate,
      duration_s: this.duration,
      buyers: SYSTEMS.length,
      tmax_ms: TMAX_MS,
      ping_timeout_ms: PING_TIMEOUT_MS,
      intake: load.figures,
      accepted: leadIds.length,
      sold: sales.length,
      // Over the seconds the load took to be answered (longer than --duration when intake lags).
      sold_per_s: Number(
        ((sales.length * load.figures.accepted_per_s) / Math.max(1, leadIds.length)).toFixed(1)
      ),
      outcomes: await outcomes(leadIds),
      still_selling_at_end: unsettled,
      pings_received: pings.received,
      pings_left_unanswered: pings.unanswered,
      ping_outcomes: pingOutcomes,
      pings_with_contact: pings.with_contact,
      pings_with_contact_examples: pings.examples,
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
    await bench.write('auction', summary)
    if (oversold.length > 0 || pings.with_contact > 0) this.exitCode = 1
  }

  private print(summary: Record<string, any>) {
    const show = (ms: number | null) => (ms === null ? 'lost' : String(ms))
    const table = this.ui
      .table()
      .head(['per sold auction', 'count', 'lost', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'])
    for (const [name, figures] of [
      ['end to end: 201 → winner received the post', summary.end_to_end],
      ['waiting for buyers (pings, rejected posts)', summary.buyer_wait],
      ["Leadgate's own: end to end − waiting", summary.overhead],
      ['  of which until the worker routes it', summary.overhead_before_routing],
      ['  of which routing and the post', summary.overhead_from_routing],
      ['end to end, sold on its first post', summary.end_to_end_first_post],
    ])
      table.row([
        name,
        String(figures.count),
        String(figures.lost),
        show(figures.p50_ms),
        show(figures.p95_ms),
        show(figures.p99_ms),
        show(figures.max_ms),
      ])
    table.render()
    this.logger.info(
      `intake answers ${JSON.stringify(summary.intake.statuses)} (p99 ${summary.intake.p99_ms?.toFixed(0)} ms); outcomes ${JSON.stringify(summary.outcomes)}; sold ${summary.sold} (${summary.sold_per_s}/s); pings received ${summary.pings_received} (${summary.pings_left_unanswered} left unanswered), recorded ${JSON.stringify(summary.ping_outcomes)}`
    )
    this.logger.info(
      `pings carrying contact details: ${summary.pings_with_contact}; CPU ms per sold lead: ${JSON.stringify(summary.cpu_ms_per_sold_lead)}; host load average (1 min) ${JSON.stringify(summary.load_average_1m)}`
    )
    this.logger.info(
      `caps: ${JSON.stringify(summary.caps)}; oversold: ${summary.caps_oversold.length === 0 ? 'none' : JSON.stringify(summary.caps_oversold)}`
    )
    this.logger.info(
      `goals: Leadgate's own p99 ≤ 50 ms; end to end p99 ≤ tmax + 50 = ${TMAX_MS + 50} ms`
    )
  }
}

/**
 * Per sold lead: end to end (its 201 → the winner's system receiving the post), the time spent
 * waiting for buyers (the auction's longest ping, pings being sent at once, plus every post the
 * buyer answered before the one that sold), and the rest: Leadgate's own. A lead sold (or still
 * selling at the end) whose accepted post was never seen is lost in all three. Leadgate's own is
 * split at the pings' `started_at` (when the worker took the lead up for routing): the queue
 * before it, and the rest (the routing transactions before and after the pings, the post until
 * it arrives).
 */
function auctionFigures(
  accepted: [string, number][],
  endToEnd: Map<string, number>,
  attempts: Awaited<ReturnType<typeof attemptsOf>>,
  expected: number
) {
  type Wait = { ping: number; posts: number; postCount: number; firstPing: number }
  const waits = new Map<string, Wait>()
  for (const { lead_id: leadId, kind, outcome, duration_ms: ms, started_at: at } of attempts) {
    const wait = waits.get(leadId) ?? { ping: 0, posts: 0, postCount: 0, firstPing: Infinity }
    if (kind === 'ping') {
      wait.ping = Math.max(wait.ping, ms ?? 0)
      wait.firstPing = Math.min(wait.firstPing, at.getTime())
    } else if (outcome !== 'accepted') {
      wait.posts += ms ?? 0
      wait.postCount++
    }
    waits.set(leadId, wait)
  }
  const answeredAt = new Map(accepted)
  const figures = {
    total: [],
    waited: [],
    own: [],
    before: [],
    after: [],
    firstPost: [],
  } as Record<string, number[]>
  for (const [leadId, ms] of endToEnd) {
    const wait = waits.get(leadId) ?? { ping: 0, posts: 0, postCount: 0, firstPing: Infinity }
    const own = ms - wait.ping - wait.posts
    figures.total.push(ms)
    figures.waited.push(wait.ping + wait.posts)
    figures.own.push(own)
    if (wait.firstPing < Infinity) {
      // The worker's clock and the load process's are the same machine's.
      const before = wait.firstPing - answeredAt.get(leadId)!
      figures.before.push(before)
      figures.after.push(own - before)
    }
    if (wait.postCount === 0) figures.firstPost.push(ms)
  }
  const lost = Math.max(0, expected - endToEnd.size)
  return {
    end_to_end: summarise(figures.total, lost),
    buyer_wait: summarise(figures.waited, lost),
    overhead: summarise(figures.own, lost),
    overhead_before_routing: summarise(figures.before),
    overhead_from_routing: summarise(figures.after),
    end_to_end_first_post: summarise(figures.firstPost),
  }
}
