import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { runUnderLease } from '#services/platform/leased_lock'
import { uuidv7 } from 'uuidv7'
import privacyConfig from '#config/privacy'
import Publisher from '#models/publisher'
import TenancyService from '#services/platform/tenancy_service'
import LeadEraser, { MINIMISE_SALE_ANSWERS, addCounts } from '#services/privacy/lead_eraser'
import { type RetentionPolicy, retentionByLabel } from '#services/privacy/retention_policy_service'

export const RETENTION_ACTOR = 'system:retention'

export type PurgeCounts = {
  leads_erased: number
  ips_removed: number
  attributes_removed: number
  upload_rows_deleted: number
  uploads_minimised: number
  events_deleted: number
  sale_answers_minimised: number
  access_log_deleted: number
}

function noPurges(): PurgeCounts {
  return {
    leads_erased: 0,
    ips_removed: 0,
    attributes_removed: 0,
    upload_rows_deleted: 0,
    uploads_minimised: 0,
    sale_answers_minimised: 0,
    events_deleted: 0,
    access_log_deleted: 0,
  }
}

function cutoff(now: Date, days: number | null) {
  return days === null ? null : new Date(now.getTime() - days * 86_400_000)
}

/**
 * One pass of retention (docs/privacy.md, "Retention"): for every label with periods, what
 * is due in each category is erased or minimised in batches of `batch` rows, each batch its
 * own short transaction. Every selection asks for what still holds data, so a pass that was
 * interrupted resumes where it stopped and a second pass finds nothing. The run is recorded
 * in `purge_runs` with its counts, updated after every batch, never with data.
 */
export async function purgeOnce(now = new Date(), batch = privacyConfig.purgeBatch) {
  const runId = uuidv7()
  const counts = noPurges()
  await db
    .table('purge_runs')
    .insert({ id: runId, as_of: now, counts: JSON.stringify(counts), started_at: new Date() })
  const record = (more: Partial<PurgeCounts>) => {
    addCounts(counts, more)
    return db
      .from('purge_runs')
      .where('id', runId)
      .update({ counts: JSON.stringify(counts) })
  }
  const tenancy = await app.container.make(TenancyService)
  const eraser = await app.container.make(LeadEraser)

  for (const { labelId, policy } of await retentionByLabel()) {
    const publishers = await Publisher.query().where('label_id', labelId).orderBy('id')
    for (const publisher of publishers) {
      await purgePublisher(publisher, policy, now, batch, { tenancy, eraser, record })
    }
    await untilDone(batch, async () => {
      const due = cutoff(now, policy.access_log_days)
      if (!due) return 0
      const n = await deleted(
        `DELETE FROM access_log WHERE id IN (
           SELECT id FROM access_log WHERE created_at < ? AND publisher_id IN (
             SELECT id FROM publishers WHERE label_id = ?) LIMIT ?)`,
        [due, labelId, batch]
      )
      await record({ access_log_deleted: n })
      return n
    })
  }
  await db.from('purge_runs').where('id', runId).update({ finished_at: new Date() })
  return counts
}

type Tools = {
  tenancy: TenancyService
  eraser: LeadEraser
  record: (more: Partial<PurgeCounts>) => Promise<unknown>
}

async function purgePublisher(
  publisher: Publisher,
  policy: RetentionPolicy,
  now: Date,
  batch: number,
  { tenancy, eraser, record }: Tools
) {
  const contactDue = cutoff(now, policy.contact_days)
  if (contactDue) {
    await untilDone(batch, async () => {
      const due = await tenancy.run(publisher, (trx) =>
        trx.rawQuery(
          `SELECT id FROM leads WHERE created_at < ?
             AND (email_key IS NOT NULL OR phone_key IS NOT NULL
                  OR jsonb_exists_any(contact, array['name', 'email', 'phone', 'postal_code']))
           ORDER BY created_at LIMIT ?`,
          [contactDue, batch]
        )
      )
      const ids: string[] = due.rows.map((row: { id: string }) => row.id)
      if (ids.length > 0) await eraser.erase(publisher, ids, RETENTION_ACTOR)
      await record({ leads_erased: ids.length })
      return ids.length
    })
  }
  const inTenant = async (sql: string, bindings: unknown[]) =>
    rowCount(await tenancy.run(publisher, (trx) => trx.rawQuery(sql, bindings as any)))
  const steps: Array<[Date | null, keyof PurgeCounts, string]> = [
    [
      cutoff(now, policy.ip_days),
      'ips_removed',
      `UPDATE leads SET consent = consent - 'ip', updated_at = now() WHERE id IN (
         SELECT id FROM leads WHERE created_at < ? AND jsonb_exists(consent, 'ip') LIMIT ?)`,
    ],
    [
      cutoff(now, policy.attributes_days),
      'attributes_removed',
      `UPDATE leads SET attributes = '{}'::jsonb, updated_at = now() WHERE id IN (
         SELECT id FROM leads WHERE created_at < ? AND attributes <> '{}'::jsonb LIMIT ?)`,
    ],
    [
      cutoff(now, policy.uploads_days),
      'upload_rows_deleted',
      `DELETE FROM upload_rows WHERE (upload_id, row_number) IN (
         SELECT r.upload_id, r.row_number FROM upload_rows r JOIN uploads u ON u.id = r.upload_id
          WHERE u.created_at < ? LIMIT ?)`,
    ],
    [
      cutoff(now, policy.uploads_days),
      'uploads_minimised',
      `UPDATE uploads SET filename = NULL, columns = '[]'::jsonb, updated_at = now() WHERE id IN (
         SELECT id FROM uploads WHERE created_at < ? AND (filename IS NOT NULL OR columns <> '[]'::jsonb)
          LIMIT ?)`,
    ],
  ]
  for (const [due, counter, sql] of steps) {
    if (!due) continue
    await untilDone(batch, async () => {
      const n = await inTenant(sql, [due, batch])
      await record({ [counter]: n })
      return n
    })
  }
  const eventsDue = cutoff(now, policy.webhook_payload_days)
  if (eventsDue) {
    // What buyers' systems were sent and answered lives as long as webhook payloads do.
    await untilDone(batch, async () => {
      const n = await inTenant(
        `${MINIMISE_SALE_ANSWERS} AND id IN (
           SELECT id FROM sale_attempts WHERE started_at < ?
              AND (request IS NOT NULL OR response_excerpt IS NOT NULL OR reason !~ '^[a-z0-9_]+$')
            LIMIT ?)`,
        [eventsDue, batch]
      )
      await record({ sale_answers_minimised: n })
      return n
    })
    // An event goes with its deliveries and their attempts (ON DELETE CASCADE) once none is still due.
    await untilDone(batch, async () => {
      const n = await deleted(
        `DELETE FROM outbox_events WHERE id IN (
           SELECT e.id FROM outbox_events e WHERE e.publisher_id = ? AND e.created_at < ?
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                               WHERE d.event_id = e.id AND d.status IN ('pending', 'failed'))
            LIMIT ?)`,
        [publisher.id, eventsDue, batch]
      )
      await record({ events_deleted: n })
      return n
    })
  }
}

/**
 * `purgeOnce` if no other process is purging (the lock `privacy:purge`, held for the run):
 * its counts, or null when another runner has it. The worker's clock and
 * `node ace privacy:purge` both come through here.
 */
export async function purgeUnderLock(now = new Date(), batch = privacyConfig.purgeBatch) {
  const [ran, counts] = await runUnderLease('privacy:purge', () => purgeOnce(now, batch))
  return ran ? counts : null
}

/** Repeats a batch until one comes back short. */
async function untilDone(batch: number, step: () => Promise<number>) {
  for (;;) {
    if ((await step()) < batch) return
  }
}

async function deleted(sql: string, bindings: unknown[]) {
  return rowCount(await db.rawQuery(sql, bindings as any))
}

function rowCount(result: { rowCount?: number | null }) {
  return Number(result.rowCount ?? 0)
}
