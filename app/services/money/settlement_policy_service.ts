import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Label from '#models/label'
import type Principal from '#auth/principal'
import moneyConfig from '#config/money'
import AccessLogService from '#services/access/access_log_service'
import { transaction } from '#services/sql/transaction'

export const PAYOUT_SCHEDULES = ['weekly', 'monthly'] as const
export const DISPUTE_OUTCOMES = ['upheld', 'rejected'] as const

export type SettlementPolicy = {
  payout_schedule: (typeof PAYOUT_SCHEDULES)[number]
  minimum_payout_cents: number
  /** Hours the publisher has to answer a dispute. */
  response_hours: number
  /** Hours the operator has to decide one the rules could not. */
  decision_hours: number
  /** What a dispute nobody decided in time comes to. */
  default_outcome: (typeof DISPUTE_OUTCOMES)[number]
}

const COLUMNS = [
  'payout_schedule',
  'minimum_payout_cents',
  'response_hours',
  'decision_hours',
  'default_outcome',
] as const

function fromRow(row: Record<string, any> | undefined): SettlementPolicy {
  if (!row) return { ...moneyConfig.defaultPolicy }
  return {
    payout_schedule: row.payout_schedule,
    minimum_payout_cents: Number(row.minimum_payout_cents),
    response_hours: row.response_hours,
    decision_hours: row.decision_hours,
    default_outcome: row.default_outcome,
  }
}

/** The policy of the label a lead or publisher belongs to; a publisher without a label has the defaults. */
export async function policyForLabel(labelId: string | null | undefined) {
  if (!labelId) return { ...moneyConfig.defaultPolicy }
  return fromRow(await db.from('settlement_policies').where('label_id', labelId).first())
}

/**
 * Per label: when its publishers are paid and how its disputes run. The
 * operator's alone; a label that never set one has the defaults
 * (config/money.ts).
 */
@inject()
export default class SettlementPolicyService {
  constructor(protected accessLog: AccessLogService) {}

  show(label: Label) {
    return policyForLabel(label.id)
  }

  async replace(principal: Principal, label: Label, policy: SettlementPolicy) {
    await transaction(async (trx) => {
      const row = Object.fromEntries(COLUMNS.map((column) => [column, policy[column]]))
      await trx.rawQuery(
        `INSERT INTO settlement_policies (label_id, ${COLUMNS.join(', ')}, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, now())
         ON CONFLICT (label_id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
           updated_at = now()`,
        [label.id, ...COLUMNS.map((column) => policy[column])]
      )
      await this.accessLog.record(
        principal.actor,
        'settlement_policy.replaced',
        { type: 'label', id: label.id },
        { details: row, trx }
      )
    })
    return policyForLabel(label.id)
  }
}
