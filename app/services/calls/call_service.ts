import { uuidv7 } from 'uuidv7'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import LeadService from '#services/leads/lead_service'
import TenancyService from '#services/platform/tenancy_service'
import AuditChainService from '#services/audit/audit_chain_service'
import OutboxService from '#services/webhooks/outbox_service'
import { transaction } from '#services/sql/transaction'
import { type Match, matchByPhone } from '#services/calls/call_matcher'
import type { CallInput } from '#services/calls/call_vendors'

export type CallRow = {
  id: string
  environment: string
  vendor: string
  vendor_call_id: string
  lead_id: string | null
  publisher_id: string | null
  status: 'attached' | 'unmatched' | 'ambiguous'
  matched_by: 'lead_id' | 'phone' | null
  candidates: number
  tracking_number: string | null
  started_at: Date
  duration_seconds: number | null
  disposition: string | null
  recording_url: string | null
  campaign: string | null
  reported_by: string
  created_at: Date
  updated_at: Date
}

/**
 * Calls from call-tracking vendors attached to leads (docs/calls.md). A lead
 * id passed through wins; otherwise the caller's phone, in a window before
 * the call. A repeat of a vendor's call id updates the call. Attaching writes
 * `call.attached` to the lead's audit trail and publishes the event, in one
 * transaction with the call.
 */
@inject()
export default class CallService {
  constructor(
    protected leads: LeadService,
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService
  ) {}

  async record(principal: Principal, vendor: string, input: CallInput) {
    const match = await this.match(principal, input)
    const existing: CallRow | null = await db
      .from('calls')
      .where({ vendor, vendor_call_id: input.call_id, environment: principal.environment })
      .first()
    // A repeat that no longer finds the lead (the vendor dropped the tag) keeps the attachment.
    const keep = existing?.lead_id && match.status !== 'attached'
    const now = new Date()
    const row = {
      lead_id: keep ? existing.lead_id : match.status === 'attached' ? match.leadId : null,
      publisher_id: keep
        ? existing.publisher_id
        : match.status === 'attached'
          ? match.publisherId
          : null,
      status: keep ? 'attached' : match.status,
      matched_by: keep ? existing.matched_by : match.status === 'attached' ? match.matchedBy : null,
      candidates: match.status === 'attached' ? 1 : match.candidates.length,
      tracking_number: input.tracking_number ?? null,
      started_at: input.started_at,
      duration_seconds: input.duration_seconds ?? null,
      disposition: input.disposition ?? null,
      recording_url: input.recording_url ?? null,
      campaign: input.campaign ?? null,
      reported_by: principal.actor,
      updated_at: now,
    }
    const id = existing?.id ?? uuidv7()
    const newlyAttached = row.lead_id !== null && row.lead_id !== existing?.lead_id
    await transaction(async (trx) => {
      if (existing) await trx.from('calls').where('id', id).update(row)
      else
        await trx.table('calls').insert({
          id,
          environment: principal.environment,
          vendor,
          vendor_call_id: input.call_id,
          created_at: now,
          ...row,
        })
      if (!newlyAttached) return
      const fact = await trx
        .from('lead_facts')
        .where('lead_id', row.lead_id!)
        .select('status', 'buyer_id')
        .first()
      await this.audit.append(trx, {
        publisherId: row.publisher_id!,
        leadId: row.lead_id!,
        environment: principal.environment,
        entries: [
          {
            event: 'call.attached',
            actor: principal.actor,
            statusFrom: fact.status,
            statusTo: fact.status,
          },
        ],
      })
      await this.outbox.publish(trx, [
        {
          type: 'call.attached',
          publisherId: row.publisher_id,
          buyerId: fact.buyer_id ?? null,
          leadId: row.lead_id,
          environment: principal.environment,
          data: {
            call_id: id,
            lead_id: row.lead_id,
            vendor,
            vendor_call_id: input.call_id,
            started_at: input.started_at.toISOString(),
            duration_seconds: row.duration_seconds,
            disposition: row.disposition,
            campaign: row.campaign,
            matched_by: row.matched_by,
          },
        },
      ])
    })
    const call: CallRow = await db.from('calls').where('id', id).first()
    return {
      call,
      created: !existing,
      candidates: match.status === 'ambiguous' ? match.candidates : [],
    }
  }

  /** The calls of a lead, for whoever may see the lead. */
  async forLead(principal: Principal, leadId: string): Promise<CallRow[]> {
    await this.leads.visiblePublisherId(principal, leadId)
    return db.from('calls').where('lead_id', leadId).orderBy('started_at', 'desc')
  }

  private async match(principal: Principal, input: CallInput): Promise<Match> {
    if (input.lead_id) {
      const publisherId = await this.leads
        .visiblePublisherId(principal, input.lead_id)
        .catch(() => null)
      if (!publisherId) {
        throw ApiProblem.unprocessable([
          { field: 'lead_id', code: 'exists', message: 'No lead you can see has this id.' },
        ])
      }
      return { status: 'attached', leadId: input.lead_id, publisherId, matchedBy: 'lead_id' }
    }
    if (!input.caller_number) return { status: 'unmatched', candidates: [] }
    return matchByPhone(
      principal,
      this.tenancy,
      input.caller_number,
      input.started_at,
      input.country ?? null
    )
  }
}
