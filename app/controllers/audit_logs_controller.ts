import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import LeadService from '#services/leads/lead_service'
import AuditChainService from '#services/audit/audit_chain_service'
import AuditExportService, { type ExportFilters } from '#services/audit/audit_export_service'
import AuditProofService from '#services/audit/audit_proof_service'
import AuditVerifierService from '#services/audit/audit_verifier_service'
import TrailEventTransformer from '#transformers/trail_event_transformer'
import LogVerificationTransformer from '#transformers/log_verification_transformer'
import VerificationTransformer from '#transformers/verification_transformer'
import { sendAuditExport } from '#controllers/concerns/audit_export_response'
import {
  auditExportValidator,
  auditTrailValidator,
  consistencyValidator,
  proofValidator,
  verifyTrailValidator,
} from '#validators/audit_log'

/**
 * A lead's audit trail, its proofs and the exports, for whoever may see the
 * lead: publisher, buyer, operator. Log-wide evidence (checkpoints,
 * consistency) holds only hashes and sizes, so every reader may have it.
 */
@inject()
export default class AuditLogsController {
  constructor(
    protected leads: LeadService,
    protected audit: AuditChainService,
    protected proofs: AuditProofService,
    protected exports: AuditExportService,
    protected verifier: AuditVerifierService
  ) {}

  /** With `lead_id`: that lead's trail. Without: an export over the filters, streamed. */
  async index(ctx: HttpContext) {
    const { request, principal, bouncer, serialize } = ctx
    if (request.qs().lead_id === undefined) return this.export(ctx)
    await bouncer.with('LeadPolicy').authorize('view')
    const { lead_id: leadId } = await auditTrailValidator.validate(request.qs())
    const publisherId = await this.visiblePublisher(principal, leadId)
    const entries = await this.audit.entriesFor(publisherId, leadId)
    return {
      lead_id: leadId,
      events: await serialize(TrailEventTransformer.transform(entries)),
    }
  }

  /** With `lead_id`: that lead's chain. Without: the whole log, trees and signatures included (operator). */
  async verify({ request, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { lead_id: leadId } = await verifyTrailValidator.validate(request.qs())
    if (leadId === undefined) {
      await bouncer.with('AuditLogPolicy').authorize('verifyLog')
      return serialize(LogVerificationTransformer.transform(await this.verifier.verifyLog()))
    }
    await this.visiblePublisher(principal, leadId)
    return serialize(VerificationTransformer.transform(await this.audit.verify(leadId)))
  }

  async proof({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('view')
    const { lead_id: leadId } = await proofValidator.validate(request.qs())
    await this.visiblePublisher(principal, leadId)
    return this.proofs.bundle(leadId)
  }

  async consistency({ request, bouncer }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('view')
    const { from, to } = await consistencyValidator.validate(request.qs())
    return this.proofs.consistency(from, to)
  }

  async latestCheckpoint({ bouncer }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('view')
    const checkpoint = await this.proofs.latestCheckpoint()
    if (!checkpoint) throw ApiProblem.notFound('checkpoint')
    return { ...checkpoint, ...this.proofs.key }
  }

  private async export(ctx: HttpContext) {
    await ctx.bouncer.with('AuditLogPolicy').authorize('export')
    const { format = 'json', ...filters } = await auditExportValidator.validate(ctx.request.qs())
    return sendAuditExport(ctx, this.exports, format, filters as ExportFilters)
  }

  private visiblePublisher(principal: HttpContext['principal'], leadId: string) {
    return this.leads.visiblePublisherId(principal, leadId)
  }
}
