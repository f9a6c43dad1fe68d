import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import moneyConfig from '#config/money'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { runUnderLease } from '#services/platform/leased_lock'
import AccessLogService from '#services/access/access_log_service'
import { SETTLEMENT_ACTOR } from '#services/money/acceptance_service'
import { accountPrefix } from '#services/money/ledger'
import { type MadePayout, OPEN_PAYOUT_STATUSES, makePayouts } from '#services/money/payout_maker'
import { type IsoDate, lastFullPeriodEnd, todayUtc } from '#services/money/payout_period'
import type { SettlementPolicy } from '#services/money/settlement_policy_service'

/** The lock that lets one payout run at a time, across every web and worker process. */
export const PAYOUT_RUN_LOCK = 'money:payout-run'
/** Publishers paid side by side: one waits on Postgres while the other's rows are prepared. */
const PAYOUT_CONCURRENCY = 2

/** The publishers one settlement policy covers: a label's, or those without a label (the defaults). */
type Group = {
  labelId: string | null
  labelSlug: string | null
  schedule: SettlementPolicy['payout_schedule']
  minimumCents: number
}

export type PayoutRunInput = { label?: string; period_end?: IsoDate; environment?: Environment }

/** Every environment the settlement clock pays on schedule: the sandbox behaves like live. */
export const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox']

export type GroupRun = {
  id: string
  label: string | null
  /** Whose money the run paid: live sales, or the sandbox's. */
  environment: Environment
  period_end: IsoDate
  /** Publishers whose payable balance, net of open payouts, reached the minimum. */
  publishers: number
  payouts: number
  totals: { currency: string; payouts: number; amount_cents: number }[]
}

/**
 * Payout runs: per label, for a period, one payout per publisher and
 * currency of what it is owed (`payout_maker.ts`). One run at a time
 * (`@adonisjs/lock`); a second one asked for meanwhile is refused (409),
 * and the settlement clock simply skips its turn. Idempotent per publisher
 * and period: running again creates nothing new. A run pays one environment:
 * live unless the operator names the sandbox; the clock runs both.
 */
@inject()
export default class PayoutRunService {
  constructor(protected accessLog: AccessLogService) {}

  /** POST /v1/payout-runs: every label (or the one named), each for its last full period unless one is named. */
  async run(principal: Principal, input: PayoutRunInput, now = new Date()) {
    if (input.period_end && input.period_end > todayUtc(now)) {
      throw ApiProblem.unprocessable([
        {
          field: 'period_end',
          code: 'period_not_ended',
          message: 'A period is paid once it has ended: name today or an earlier day.',
        },
      ])
    }
    const groups = await this.groups(input.label)
    if (input.label && groups.length === 0) {
      throw ApiProblem.unprocessable([
        { field: 'label', code: 'exists', message: `No label with slug "${input.label}".` },
      ])
    }
    const environment = input.environment ?? 'live'
    const [ran, runs] = await runUnderLease(PAYOUT_RUN_LOCK, () =>
      this.runGroups(
        groups.map((group) => ({
          group,
          environment,
          periodEnd: input.period_end ?? lastFullPeriodEnd(group.schedule, now),
        })),
        { trigger: 'api', actor: principal.actor },
        now
      )
    )
    if (!ran) {
      throw ApiProblem.conflict(
        'payout_run_in_progress',
        'A payout run is in progress; ask again once it has finished (it is idempotent).'
      )
    }
    const payouts = runs.reduce((sum, run) => sum + run.payouts, 0)
    // One entry per request, about its first group's run (a label named has exactly one).
    await this.accessLog.record(
      principal.actor,
      'payout_run.created',
      { type: 'payout_run', id: runs[0].id },
      {
        details: {
          label: input.label ?? null,
          period_end: input.period_end ?? null,
          environment,
          payouts,
        },
      }
    )
    return { runs, payouts }
  }

  /**
   * The settlement clock's step: each label whose last period has ended and
   * was not run yet is run once, live and sandbox alike. Cheap when there is
   * nothing to do (one read of the labels and one of the runs); skipped while
   * another run holds the lock (the next tick tries again).
   */
  async runDue(now = new Date()) {
    const groups = await this.groups()
    const due = ENVIRONMENTS.flatMap((environment) =>
      groups.map((group) => ({
        group,
        environment,
        periodEnd: lastFullPeriodEnd(group.schedule, now),
      }))
    )
    const done = await db
      .from('payout_runs')
      .whereIn('period_end', [...new Set(due.map((item) => item.periodEnd))])
      .select('label_id', 'environment', db.raw('period_end::text AS period_end'))
    const key = (labelId: string | null, environment: string, periodEnd: string) =>
      `${labelId}/${environment}/${periodEnd}`
    const ran = new Set(done.map((row) => key(row.label_id, row.environment, row.period_end)))
    const pending = due.filter(
      (item) => !ran.has(key(item.group.labelId, item.environment, item.periodEnd))
    )
    if (pending.length === 0) return []
    const [acquired, runs] = await runUnderLease(PAYOUT_RUN_LOCK, () =>
      this.runGroups(pending, { trigger: 'schedule', actor: SETTLEMENT_ACTOR }, now)
    )
    return acquired ? runs : []
  }

  private async runGroups(
    items: { group: Group; environment: Environment; periodEnd: IsoDate }[],
    by: { trigger: 'api' | 'schedule'; actor: string },
    now: Date
  ) {
    const runs: GroupRun[] = []
    for (const { group, environment, periodEnd } of items) {
      const startedAt = new Date()
      const publishers = await this.candidates(group, environment, periodEnd)
      const made = await inPool(publishers, PAYOUT_CONCURRENCY, (publisherId) =>
        makePayouts(
          {
            publisherId,
            labelId: group.labelId,
            periodEnd,
            minimumCents: group.minimumCents,
            environment,
          },
          now
        )
      )
      const run = summary(group, environment, periodEnd, publishers.length, made.flat())
      await db.table('payout_runs').insert({
        id: run.id,
        label_id: group.labelId,
        environment,
        period_end: periodEnd,
        trigger: by.trigger,
        actor: by.actor,
        publishers: run.publishers,
        payouts: run.payouts,
        totals: JSON.stringify(run.totals),
        started_at: startedAt,
        finished_at: new Date(),
      })
      if (run.payouts > 0) {
        logger.info(
          { label: group.labelSlug, environment, periodEnd, payouts: run.payouts },
          'payout run: payouts created'
        )
      }
      runs.push(run)
    }
    return runs
  }

  /** Every label with its schedule and minimum (or the one named), and the publishers without one. */
  private async groups(labelSlug?: string): Promise<Group[]> {
    const query = db
      .from('labels as l')
      .leftJoin('settlement_policies as sp', 'sp.label_id', 'l.id')
      .select('l.id', 'l.slug', 'sp.payout_schedule', 'sp.minimum_payout_cents')
      .orderBy('l.slug')
    if (labelSlug) query.where('l.slug', labelSlug)
    const defaults = moneyConfig.defaultPolicy
    const rows = await query
    const groups: Group[] = rows.map((row) => ({
      labelId: row.id,
      labelSlug: row.slug,
      schedule: row.payout_schedule ?? defaults.payout_schedule,
      minimumCents: Number(row.minimum_payout_cents ?? defaults.minimum_payout_cents),
    }))
    if (!labelSlug) {
      groups.push({
        labelId: null,
        labelSlug: null,
        schedule: defaults.payout_schedule,
        minimumCents: defaults.minimum_payout_cents,
      })
    }
    return groups
  }

  /**
   * The group's publishers that may be owed a payout for the period: minus
   * their payable balance, less their open payouts, reaches the minimum in
   * some currency, and they have none for that period and currency yet. One
   * set-based read; each publisher's exact amount is decided in its own
   * transaction (a period's cut-off can only lower it). One environment's
   * accounts and payouts.
   */
  private async candidates(
    group: Group,
    environment: Environment,
    periodEnd: IsoDate
  ): Promise<string[]> {
    const result = await db.rawQuery(
      `WITH pubs AS (
         SELECT id, ? || 'publisher:' || id || ':payable' AS account FROM publishers
          WHERE ${group.labelId ? 'label_id = ?' : 'label_id IS NULL'}
       ), owed AS (
         SELECT p.id, t.currency, -sum(t.cents) AS cents FROM pubs p
          CROSS JOIN LATERAL (
            SELECT b.currency::text AS currency, b.balance_cents AS cents
              FROM ledger_balances b WHERE b.account = p.account
            UNION ALL
            SELECT e.currency::text, e.amount_cents FROM ledger_entries e
             WHERE e.account = p.account AND e.xid >= (SELECT folded_below FROM ledger_folds)
          ) t
         GROUP BY p.id, t.currency
       ), open AS (
         SELECT o.publisher_id AS id, o.currency::text AS currency, sum(o.amount_cents) AS cents
           FROM payouts o JOIN pubs p ON p.id = o.publisher_id
          WHERE o.status = ANY(?::text[]) AND o.environment = ?
          GROUP BY 1, 2
       )
       SELECT DISTINCT owed.id FROM owed
         LEFT JOIN open ON open.id = owed.id AND open.currency = owed.currency
        WHERE owed.cents - coalesce(open.cents, 0) >= ?
          AND NOT EXISTS (SELECT 1 FROM payouts x WHERE x.publisher_id = owed.id
                            AND x.period_end = ?::date AND x.currency = owed.currency
                            AND x.environment = ?)
        ORDER BY owed.id`,
      [
        accountPrefix(environment),
        ...(group.labelId ? [group.labelId] : []),
        [...OPEN_PAYOUT_STATUSES],
        environment,
        Math.max(1, group.minimumCents),
        periodEnd,
        environment,
      ]
    )
    return result.rows.map((row: { id: string }) => row.id)
  }
}

function summary(
  group: Group,
  environment: Environment,
  periodEnd: IsoDate,
  publishers: number,
  made: MadePayout[]
) {
  const totals = new Map<string, { currency: string; payouts: number; amount_cents: number }>()
  for (const payout of made) {
    const total = totals.get(payout.currency) ?? {
      currency: payout.currency,
      payouts: 0,
      amount_cents: 0,
    }
    total.payouts += 1
    total.amount_cents += payout.amount_cents
    totals.set(payout.currency, total)
  }
  return {
    id: uuidv7(),
    label: group.labelSlug,
    environment,
    period_end: periodEnd,
    publishers,
    payouts: made.length,
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  } satisfies GroupRun
}

/**
 * `work` over `items`, at most `size` at a time, results in the items' order. After a failure no
 * item is started and the ones under way finish before the error is thrown, so nothing runs on
 * once the run (and its lock) has ended.
 */
async function inPool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++
      try {
        results[index] = await work(items[index])
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(size, items.length) }, worker)
  )
  const rejected = settled.find((outcome) => outcome.status === 'rejected')
  if (rejected) throw rejected.reason
  return results
}

/** The settlement clock's step (settlement_clock.ts): run the payouts whose period has ended. */
export async function runDuePayouts(now = new Date()) {
  const runner = await app.container.make(PayoutRunService)
  return runner.runDue(now)
}
