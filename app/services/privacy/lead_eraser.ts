import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Publisher from '#models/publisher'
import TenancyService from '#services/platform/tenancy_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import { insertTogether } from '#services/sql/insert_together'
import { containing } from '#services/sql/like_pattern'
import { needlesOf, redact, redactEvent } from '#services/privacy/redaction'

export type ErasureCounts = {
  leads: number
  salts: number
  upload_rows: number
  dispute_messages: number
  dispute_files: number
  events: number
  attempts: number
  access_log: number
  idempotency_keys: number
  plugin_syncs: number
  calls: number
  sale_answers: number
}

/**
 * What a sale's attempts hold of the consumer goes: the request as sent and the buyer's answer;
 * a reason stays only as Leadgate's own code (the buyer's words may repeat the lead). Append a
 * condition on the attempts to minimise (this selects those that still hold something).
 */
export const MINIMISE_SALE_ANSWERS = `UPDATE sale_attempts SET request = NULL, response_excerpt = NULL,
    reason = CASE WHEN reason ~ '^[a-z0-9_]+$' THEN reason ELSE NULL END
  WHERE (request IS NOT NULL OR response_excerpt IS NOT NULL OR reason !~ '^[a-z0-9_]+$')`

export function noErasures(): ErasureCounts {
  return {
    leads: 0,
    salts: 0,
    upload_rows: 0,
    dispute_messages: 0,
    dispute_files: 0,
    events: 0,
    attempts: 0,
    access_log: 0,
    idempotency_keys: 0,
    plugin_syncs: 0,
    calls: 0,
    sale_answers: 0,
  }
}

export function addCounts<T extends Record<string, number>>(into: T, more: Partial<T>) {
  for (const [name, value] of Object.entries(more)) {
    ;(into as Record<string, number>)[name] = (into[name] ?? 0) + (value ?? 0)
  }
  return into
}

type LockedLead = { id: string; status: string; environment: string } & Record<string, unknown>

/** The subject's keys as intake stored them, for the rows that never became a lead. */
export type SubjectKeys = { emailKey: string | null; phoneKey: string | null }

/**
 * Erases leads of one publisher: their personal data everywhere it was copied (the lead's
 * contact, IP, attributes and the reviewer's note; the upload rows it came from; what the
 * parties of its disputes wrote; its events' payloads and the answers endpoints gave to
 * them; access-log details and stored answers naming it), destroys its salt so the consent
 * commitments can no longer be linked to anyone, and appends `lead.erased` to its chain
 * (status unchanged: money and reports carry on from `lead_facts`, which holds nothing
 * personal). One transaction per call; callers pass small batches so no lock is held long.
 */
@inject()
export default class LeadEraser {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService
  ) {}

  async erase(
    publisher: Publisher,
    leadIds: string[],
    actor: string,
    subject: SubjectKeys | null = null
  ): Promise<ErasureCounts> {
    return this.tenancy.run(publisher, (trx) =>
      this.eraseWithin(trx, publisher, leadIds, actor, subject)
    )
  }

  private async eraseWithin(
    trx: TransactionClientContract,
    publisher: Publisher,
    leadIds: string[],
    actor: string,
    subject: SubjectKeys | null
  ) {
    const counts = noErasures()
    // Leads and their chain heads in one statement, in id order, as routing and review take them.
    const locked = await trx.rawQuery(
      `SELECT l.id, l.status, l.environment, l.contact, l.consent, l.email_key, l.phone_key,
              ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ANY(?::uuid[]) ORDER BY l.id FOR UPDATE OF l, h`,
      [leadIds]
    )
    const leads: LockedLead[] = locked.rows
    const ids = leads.map((lead) => lead.id)
    const needles = needlesOf([
      subject?.emailKey,
      subject?.phoneKey,
      ...leads.flatMap((lead) => {
        const contact = (lead.contact ?? {}) as Record<string, unknown>
        const consent = (lead.consent ?? {}) as Record<string, unknown>
        return [contact.email, contact.phone, consent.ip, lead.email_key, lead.phone_key]
      }),
    ])

    if (ids.length > 0) {
      counts.leads = await this.minimiseLeads(trx, ids)
      counts.salts = await affected(
        trx,
        'DELETE FROM lead_secrets WHERE lead_id = ANY(?::uuid[])',
        [ids]
      )
      const disputes = `SELECT id FROM public.disputes WHERE lead_id = ANY(?::uuid[])`
      counts.dispute_messages = await affected(
        trx,
        `UPDATE dispute_messages SET text = NULL WHERE text IS NOT NULL AND dispute_id IN (${disputes})`,
        [ids]
      )
      counts.dispute_files = await affected(
        trx,
        `UPDATE dispute_files SET content = ''::bytea, filename = 'erased'
          WHERE filename <> 'erased' AND dispute_id IN (${disputes})`,
        [ids]
      )
      counts.events = await this.redactEvents(trx, ids, needles)
      counts.attempts = await affected(
        trx,
        `UPDATE public.webhook_attempts a SET response_excerpt = NULL, error_detail = NULL
           FROM public.webhook_deliveries d JOIN public.outbox_events e ON e.id = d.event_id
          WHERE a.delivery_id = d.id AND e.lead_id = ANY(?::uuid[])
            AND (a.response_excerpt IS NOT NULL OR a.error_detail IS NOT NULL)`,
        [ids]
      )
      // What an adapter noted about the record it made elsewhere.
      counts.plugin_syncs = await affected(
        trx,
        `UPDATE public.plugin_lead_syncs SET details = '{}'::jsonb
          WHERE lead_id = ANY(?::uuid[]) AND details <> '{}'::jsonb`,
        [ids]
      )
      counts.calls = await affected(
        trx,
        `UPDATE public.calls SET recording_url = NULL
          WHERE lead_id = ANY(?::uuid[]) AND recording_url IS NOT NULL`,
        [ids]
      )
      counts.sale_answers = await affected(
        trx,
        `${MINIMISE_SALE_ANSWERS} AND lead_id = ANY(?::uuid[])`,
        [ids]
      )
      // Its fingerprints go too: an erased consumer is not recognised again.
      await trx.rawQuery(`DELETE FROM public.lead_fingerprints WHERE lead_id = ANY(?::uuid[])`, [
        ids,
      ])
      await insertTogether(
        trx,
        this.audit.extendTrailInserts(
          leads.map((lead) => ({
            head: chainHeadOf(lead),
            input: {
              publisherId: publisher.id,
              leadId: lead.id,
              environment: lead.environment,
              entries: [
                { event: 'lead.erased', actor, statusFrom: lead.status, statusTo: lead.status },
              ],
            },
          }))
        ).parts
      )
    }
    if (!subject) {
      // Retention: the lead's own copies. Uploads, the access log and stored answers have
      // periods of their own, so nothing is searched for by value.
      counts.upload_rows = await affected(
        trx,
        `UPDATE upload_rows SET raw = '{}'::jsonb, email_key = NULL, phone_key = NULL
          WHERE lead_id = ANY(?::uuid[])`,
        [ids]
      )
      return counts
    }
    // A data subject's request: also every copy that names the person, lead or not.
    counts.upload_rows = await affected(
      trx,
      `UPDATE upload_rows SET raw = '{}'::jsonb, email_key = NULL, phone_key = NULL
        WHERE lead_id = ANY(?::uuid[]) OR email_key = ? OR phone_key = ?
           OR raw::text ILIKE ANY(?::text[])`,
      [ids, subject.emailKey ?? '', subject.phoneKey ?? '', needles.map(containing)]
    )
    if (needles.length > 0) {
      counts.access_log = await this.redactAccessLog(trx, needles)
      counts.idempotency_keys = await affected(
        trx,
        `DELETE FROM public.idempotency_keys WHERE response_body::text ILIKE ANY(?::text[])`,
        [needles.map(containing)]
      )
    }
    return counts
  }

  /** Contact, IP, attributes, the duplicate keys and the reviewer's words; the rest stays. */
  private minimiseLeads(trx: TransactionClientContract, ids: string[]) {
    return affected(
      trx,
      `UPDATE leads SET
          contact = jsonb_strip_nulls(jsonb_build_object('country', contact->'country')),
          consent = consent - 'ip',
          attributes = '{}'::jsonb,
          email_key = NULL,
          phone_key = NULL,
          review = CASE WHEN review IS NULL THEN NULL ELSE review || '{"reason": null}'::jsonb END,
          reasons = COALESCE((
            SELECT jsonb_agg(CASE WHEN r->>'code' = 'review_rejected'
                                  THEN r || '{"message": null}'::jsonb ELSE r END ORDER BY n)
              FROM jsonb_array_elements(reasons) WITH ORDINALITY AS x(r, n)), '[]'::jsonb),
          updated_at = now()
        WHERE id = ANY(?::uuid[])`,
      [ids]
    )
  }

  private async redactEvents(trx: TransactionClientContract, ids: string[], needles: string[]) {
    const events = await trx.rawQuery(
      `SELECT id, type, payload FROM public.outbox_events WHERE lead_id = ANY(?::uuid[]) FOR UPDATE`,
      [ids]
    )
    if (events.rows.length === 0) return 0
    const payloads = events.rows.map((row: any) =>
      JSON.stringify(redactEvent(row.type, row.payload, needles))
    )
    await trx.rawQuery(
      `UPDATE public.outbox_events e SET payload = x.payload::jsonb
         FROM unnest(?::uuid[], ?::text[]) AS x(id, payload) WHERE e.id = x.id`,
      [events.rows.map((row: any) => row.id), payloads]
    )
    return events.rows.length
  }

  private async redactAccessLog(trx: TransactionClientContract, needles: string[]) {
    const entries = await trx.rawQuery(
      `SELECT id, details FROM public.access_log WHERE details::text ILIKE ANY(?::text[]) FOR UPDATE`,
      [needles.map(containing)]
    )
    if (entries.rows.length === 0) return 0
    await trx.rawQuery(
      `UPDATE public.access_log a SET details = x.details::jsonb
         FROM unnest(?::bigint[], ?::text[]) AS x(id, details) WHERE a.id = x.id`,
      [
        entries.rows.map((row: any) => row.id),
        entries.rows.map((row: any) => JSON.stringify(redact(row.details, needles))),
      ]
    )
    return entries.rows.length
  }
}

async function affected(trx: TransactionClientContract, sql: string, bindings: any[]) {
  const result = await trx.rawQuery(sql, bindings)
  return Number(result.rowCount ?? 0)
}
