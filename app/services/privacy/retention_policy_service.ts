import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Label from '#models/label'
import type Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import { transaction } from '#services/sql/transaction'

/** The retention periods of a label, in days per data category (docs/privacy.md). */
export const RETENTION_FIELDS = [
  'contact_days',
  'ip_days',
  'attributes_days',
  'uploads_days',
  'webhook_payload_days',
  'access_log_days',
] as const
export type RetentionField = (typeof RETENTION_FIELDS)[number]
/** Null: kept until erased on request. */
export type RetentionPolicy = Record<RetentionField, number | null>

export function keepEverything(): RetentionPolicy {
  return Object.fromEntries(RETENTION_FIELDS.map((field) => [field, null])) as RetentionPolicy
}

function fromRow(row: Record<string, any> | undefined): RetentionPolicy {
  const policy = keepEverything()
  for (const field of RETENTION_FIELDS) policy[field] = row?.[field] ?? null
  return policy
}

/** Every label's periods that set at least one category, for the purge job. */
export async function retentionByLabel() {
  const rows = await db.from('retention_policies').select('label_id', ...RETENTION_FIELDS)
  return rows.map((row) => ({ labelId: row.label_id as string, policy: fromRow(row) }))
}

/** Per label, how long each category of personal data is kept. The operator's alone. */
@inject()
export default class RetentionPolicyService {
  constructor(protected accessLog: AccessLogService) {}

  async show(label: Label) {
    return fromRow(await db.from('retention_policies').where('label_id', label.id).first())
  }

  async replace(principal: Principal, label: Label, policy: RetentionPolicy) {
    await transaction(async (trx) => {
      const values = RETENTION_FIELDS.map((field) => policy[field] ?? null)
      await trx.rawQuery(
        `INSERT INTO retention_policies (label_id, ${RETENTION_FIELDS.join(', ')}, updated_at)
         VALUES (?, ${values.map(() => '?').join(', ')}, now())
         ON CONFLICT (label_id) DO UPDATE SET
           ${RETENTION_FIELDS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
        [label.id, ...values] as any[]
      )
      await this.accessLog.record(
        principal.actor,
        'retention_policy.replaced',
        { type: 'label', id: label.id },
        { details: fromRow(policy), trx }
      )
    })
    return this.show(label)
  }
}
