import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import routingConfig from '#config/routing'
import RoutingRuleBook, { type ActiveRule } from '#services/routing/rule_book'
import { ruleZone } from '#services/routing/caps'
import { latestMidnight, latestOpening } from '#services/routing/schedule'

export type SweepOptions = { now?: Date; limit?: number }

/**
 * Finds the live accepted leads nobody bought that deserve another try: the
 * rules changed since the last try, a cap reset since a `cap_reached`, a
 * window opened since an `outside_schedule`, or no try at all (the job was
 * lost). Leads older than the configured age are left alone.
 */
@inject()
export default class RoutingSweeper {
  constructor(protected book: RoutingRuleBook) {}

  async dueLeads(options: SweepOptions = {}): Promise<string[]> {
    const now = options.now ?? new Date()
    const rules = await this.book.current()
    const { rulesChangedAt, capsResetAt, windowOpenedAt } = signals(rules, now)
    const query = db
      .from('lead_facts')
      .where('status', 'accepted')
      .where('environment', 'live')
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
        if (rulesChangedAt) due.orWhere('routed_at', '<', rulesChangedAt)
        if (capsResetAt) {
          due.orWhere((capped) =>
            capped.where('unsold_reason', 'cap_reached').where('routed_at', '<', capsResetAt)
          )
        }
        if (windowOpenedAt) {
          due.orWhere((closed) =>
            closed
              .where('unsold_reason', 'outside_schedule')
              .where('routed_at', '<', windowOpenedAt)
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

/** When the enabled rules last changed, when a capped rule's day last began, when a window last opened. */
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
  return { rulesChangedAt, capsResetAt: latestMidnight(cappedZones, now), windowOpenedAt }
}
