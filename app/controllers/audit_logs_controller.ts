import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import LeadService from '#services/lead_service'
import AuditChainService from '#services/audit_chain_service'
import { auditTrailValidator, verifyTrailValidator } from '#validators/audit_log'

/** A lead's audit trail, for whoever may see the lead: publisher, buyer, operator. */
@inject()
export default class AuditLogsController {
  constructor(
    protected leads: LeadService,
    protected audit: AuditChainService
  ) {}

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { lead_id: leadId } = await auditTrailValidator.validate(request.qs())
    const publisherId = await this.visiblePublisher(principal, leadId)
    const entries = await this.audit.entriesFor(publisherId, leadId)
    return {
      lead_id: leadId,
      events: entries.map((entry) => ({
        event: entry.event,
        ts: entry.ts,
        actor: entry.actor,
        lead_seq: entry.lead_seq,
        status_from: entry.status_from,
        status_to: entry.status_to,
        prev_hash: entry.prev_hash,
        hash: entry.hash,
      })),
    }
  }

  async verify({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { lead_id: leadId } = await verifyTrailValidator.validate(request.qs())
    await this.visiblePublisher(principal, leadId)
    return this.audit.verify(leadId)
  }

  private async visiblePublisher(principal: HttpContext['principal'], leadId: string) {
    const fact = await this.leads.visibleFacts(principal).where('lead_id', leadId).first()
    if (!fact) throw ApiProblem.notFound('lead')
    return fact.publisher_id as string
  }
}
