import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import routingConfig from '#config/routing'
import RoutingRuleBook, { type ActiveRule } from '#services/routing/rule_book'
import { ruleZone } from '#services/routing/caps'
import { latestMidnight, latestOpening } from '#services/routing/schedule'
import type { Environment } from '#auth/principal'

export type SweepOptions = { now?: Date; limit?: number }

const ENVIRONMENTS: Environment[] = ['live', 'sandbox']

/**
 * Finds the accepted leads nobody bought that deserve another try: the
 * rules of their environment changed since the last try, a cap reset since
 * a `cap_reached`, a window opened since an `outside_schedule`, or no try
 * at all (the job was lost). Live and sandbox leads alike (docs/sandbox.md),
 * each judged by its own environment's rules: a new sandbox rule re-offers
 * sandbox leads, never live ones. Leads older than the configured age are
 * left alone.
 */
@inject()
export default class RoutingSweeper {
  constructor(protected book: RoutingRuleBook) {}

  async dueLeads(options: SweepOptions = {}): Promise<string[]> {
    const now = options.now ?? new Date()
    const rules = await this.book.current()
    const query = db
      .from('lead_facts')
      .where('status', 'accepted')
      .whereNull('buyer_id')
      .where(
        'created_at',
        '>=',
        new Date(now.getTime() - routingConfig.retryMaxAgeHours * 3_600_000)
      )
      .where((due) => {
        due.where((never) =>
          never
            .whereNull('routed_at')
            .where(
              'created_at',
              '<',
              new Date(now.getTime() - routingConfig.lostAfterSeconds * 1000)
            )
        )
        for (const environment of ENVIRONMENTS) {
          const signalled = signals(rules[environment], now)
          if (!signalled) continue
          const { rulesChangedAt, capsResetAt, windowOpenedAt } = signalled
          // The environment's leads tried before one of its own rules' signals.
          due.orWhere((again) =>
            again.where('environment', environment).where((tried) => {
              tried.where('routed_at', '<', rulesChangedAt)
              if (capsResetAt) {
                tried.orWhere((capped) =>
                  capped.where('unsold_reason', 'cap_reached').where('routed_at', '<', capsResetAt)
                )
              }
              if (windowOpenedAt) {
                tried.orWhere((closed) =>
                  closed
                    .where('unsold_reason', 'outside_schedule')
                    .where('routed_at', '<', windowOpenedAt)
                )
              }
            })
          )
        }
      })
      .orderBy('created_at')
      .limit(options.limit ?? routingConfig.sweepBatch)
      .select('lead_id')
    const rows: { lead_id: string }[] = await query
    return rows.map((row) => row.lead_id)
  }

  /** Counter rows of periods long over. */
  async pruneUsage(now = new Date()) {
    await db
      .from('routing_rule_usage')
      .where('expires_at', '<', new Date(now.getTime() - 86_400_000))
      .delete()
  }
}

/**
 * When the enabled rules last changed, when a capped rule's day last began, when a window last
 * opened; null without rules (nothing to offer a lead again to).
 */
function signals(rules: ActiveRule[], now: Date) {
  let rulesChangedAt: Date | null = null
  let windowOpenedAt: Date | null = null
  const cappedZones = new Set<string>()
  for (const rule of rules) {
    if (!rulesChangedAt || rule.changedAt > rulesChangedAt) rulesChangedAt = rule.changedAt
    if (rule.caps.daily || rule.caps.monthly) cappedZones.add(ruleZone(rule))
    const opened = rule.schedule ? latestOpening(rule.schedule, now) : null
    if (opened && (!windowOpenedAt || opened > windowOpenedAt)) windowOpenedAt = opened
  }
  if (!rulesChangedAt) return null
  return { rulesChangedAt, capsResetAt: latestMidnight(cappedZones, now), windowOpenedAt }
}
