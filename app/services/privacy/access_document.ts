import { inject } from '@adonisjs/core'
import TenancyService from '#services/platform/tenancy_service'
import { containing } from '#services/sql/like_pattern'
import type { SubjectHoldings } from '#services/privacy/subject_finder'

/**
 * Everything held about a data subject in one publisher's schema and the shared tables that
 * copied it: the leads (contact, consent, attributes, provenance, outcome, review), the upload
 * rows that named them, what the parties of their disputes wrote, and the events sent about them.
 */
@inject()
export default class AccessDocument {
  constructor(protected tenancy: TenancyService) {}

  async holdings({ publisher, keys, leadIds }: SubjectHoldings) {
    return this.tenancy.run(publisher, async (trx) => {
      const leads = await trx
        .from('leads')
        .select(
          'id',
          'environment',
          'channel',
          'status',
          'contact',
          'consent',
          'provenance',
          'attributes',
          'reasons',
          'review',
          'created_at'
        )
        .whereIn('id', leadIds)
        .orderBy('created_at')
      const uploadRows = await trx
        .from('upload_rows')
        .select('upload_id', 'row_number', 'raw', 'outcome', 'lead_id')
        .whereIn('lead_id', leadIds)
        .orWhere('email_key', keys.emailKey ?? '')
        .orWhere('phone_key', keys.phoneKey ?? '')
        .if(keys.emailKey, (query) =>
          query.orWhereRaw('raw::text ILIKE ?', [containing(keys.emailKey!)])
        )
        .orderBy(['upload_id', 'row_number'])
      const messages = await trx
        .from('dispute_messages as m')
        .join('public.disputes as d', 'd.id', 'm.dispute_id')
        .select('d.lead_id', 'm.dispute_id', 'm.author', 'm.text', 'm.created_at')
        .whereIn('d.lead_id', leadIds)
        .orderBy('m.created_at')
      const events = await trx
        .from('public.outbox_events')
        .select('id', 'type', 'lead_id', 'created_at')
        .whereIn('lead_id', leadIds)
        .orderBy('created_at')
      return {
        publisher: publisher.slug,
        leads: leads.map((lead) => ({
          ...lead,
          dispute_messages: messages.filter((m) => m.lead_id === lead.id),
          events: events.filter((e) => e.lead_id === lead.id),
        })),
        upload_rows: uploadRows,
      }
    })
  }
}
