import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { labelsWithin, publishersWithin } from '#services/access/compliance_scope'
import AuditChainService from '#services/audit/audit_chain_service'
import AuditExportService, { type ExportFilters } from '#services/audit/audit_export_service'
import AuditProofService from '#services/audit/audit_proof_service'
import AuditVerifierService from '#services/audit/audit_verifier_service'
import LeadService from '#services/leads/lead_service'
import { sendAuditExport } from '#controllers/concerns/audit_export_response'
import { auditExportValidator, proofValidator } from '#validators/audit_log'
import LogVerificationTransformer from '#transformers/log_verification_transformer'
import VerificationTransformer from '#transformers/verification_transformer'
import type { InferData } from '@adonisjs/core/types/transformers'

/** What a check flashed for the page (the transformers' JSON). */
type Verification = InferData<VerificationTransformer>
type LogVerification = InferData<LogVerificationTransformer>

/** A log verification lists at most this many failures on the page; the API gives all of them. */
const FAILURES_SHOWN = 10

/**
 * The compliance officer's portal: verify a lead's trail or the whole log,
 * download a lead's proof bundle, export the trail for an audit. Within the
 * scope the operator set (the services enforce it), with the policies,
 * validators and services of /v1/audit-logs.
 */
@inject()
export default class ComplianceController {
  constructor(
    protected leads: LeadService,
    protected audit: AuditChainService,
    protected proofs: AuditProofService,
    protected exporter: AuditExportService,
    protected verifier: AuditVerifierService
  ) {}

  async show({ inertia, principal, session }: HttpContext) {
    const checkpoint = await this.proofs.latestCheckpoint()
    return inertia.render('compliance/audit', {
      verification: (session.flashMessages.get('verification') as Verification | undefined) ?? null,
      log_verification:
        (session.flashMessages.get('log_verification') as LogVerification | undefined) ?? null,
      checkpoint: checkpoint ? { size: checkpoint.size, root: checkpoint.root } : null,
      can_verify_log: principal.scope === null,
      scope: principal.scope,
    })
  }

  /** One lead's chain, recomputed. Another's lead, or one outside the scope, is not found. */
  async verify({ request, response, principal, bouncer, session, serialize }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const { lead_id: leadId } = await request.validateUsing(proofValidator)
    await this.leads.visiblePublisherId(principal, leadId)
    const verification = await this.audit.verify(leadId)
    session.flash('verification', await serialize(VerificationTransformer.transform(verification)))
    return response.redirect().toRoute('compliance.home')
  }

  /** The whole log: every chain, the Merkle tree and every signed checkpoint. */
  async verifyLog({ response, bouncer, session, serialize }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('verifyLog')
    const result = await this.verifier.verifyLog()
    const shown = LogVerificationTransformer.transform(result, FAILURES_SHOWN)
    session.flash('log_verification', await serialize(shown))
    return response.redirect().toRoute('compliance.home')
  }

  /** The lead's proof bundle as a file: entries, inclusion proofs, the signed checkpoint. */
  async proof({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('view')
    const { lead_id: leadId } = await proofValidator.validate(request.qs())
    await this.leads.visiblePublisherId(principal, leadId)
    const bundle = await this.proofs.bundle(leadId)
    response.header('Cache-Control', 'no-store')
    response.header('Content-Disposition', `attachment; filename="proof-${leadId}.json"`)
    return response.json(bundle)
  }

  async exportsPage({ inertia, principal }: HttpContext) {
    const [publishers, labels] = await Promise.all([
      publishersWithin(principal.scope),
      labelsWithin(principal.scope),
    ])
    return inertia.render('compliance/exports', {
      publishers: publishers.map(({ slug, name }) => ({ slug, name })),
      labels: labels.map(({ slug, name }) => ({ slug, name })),
      scope: principal.scope,
    })
  }

  /** The export itself, streamed as the API streams it; the page shows its progress. */
  async download(ctx: HttpContext) {
    await ctx.bouncer.with('AuditLogPolicy').authorize('export')
    const { format = 'json', ...filters } = await auditExportValidator.validate(ctx.request.qs())
    return sendAuditExport(ctx, this.exporter, format, filters as ExportFilters)
  }
}
