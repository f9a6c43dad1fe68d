import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import type Principal from '#auth/principal'
import AuditChainService from '#services/audit/audit_chain_service'
import AuditProofService from '#services/audit/audit_proof_service'
import LeadService, { audienceOf } from '#services/leads/lead_service'
import LeadExplorerService from '#services/leads/lead_explorer_service'
import { listLeadsValidator } from '#validators/lead'
import CallService from '#services/calls/call_service'
import SaleViewService from '#services/selling/sale_view_service'
import Buyer from '#models/buyer'
import Destination from '#models/destination'
import BuyerTransformer from '#transformers/buyer_transformer'
import CallTransformer from '#transformers/call_transformer'
import ConsentEvidenceTransformer from '#transformers/consent_evidence_transformer'
import LeadTransformer from '#transformers/lead_transformer'
import SaleViewTransformer from '#transformers/sale_view_transformer'
import TrailEventTransformer from '#transformers/trail_event_transformer'
import VerificationTransformer from '#transformers/verification_transformer'
import WebhookDeliveryTransformer from '#transformers/webhook_delivery_transformer'

/** Each portal's own list page (its words differ); a lead's page is one for every portal. */
const INDEX_PAGES = {
  operator: 'operator/leads/index',
  publisher: 'publisher/leads/index',
  buyer: 'buyer/leads/index',
} as const

/**
 * Leads in every portal: the operator's explorer, a publisher's own leads, a
 * buyer's purchases. The same validator, service and JSON as GET /v1/leads,
 * so each role sees exactly what its API key would.
 */
@inject()
export default class LeadsController {
  constructor(
    protected leads: LeadService,
    protected explorer: LeadExplorerService,
    protected audit: AuditChainService,
    protected proofs: AuditProofService,
    protected calls: CallService,
    protected sales: SaleViewService
  ) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const filters = await request.validateUsing(listLeadsValidator)
    const [page, choices] = await Promise.all([
      this.leads.list(inChosenEnvironment(principal, filters.environment), filters),
      this.explorer.filterChoices(principal),
    ])
    return inertia.render(INDEX_PAGES[audienceOf(principal)], {
      leads: LeadTransformer.transform(page.data),
      next_cursor: page.next_cursor,
      choices,
    })
  }

  /** A lead's whole story; its trail's verification is asked for separately (the "Verify" button). */
  async show({ params, request, inertia, principal: person, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    const principal = inChosenEnvironment(person, request.qs().environment)
    const story = await this.explorer.story(principal, params.id)
    const calls = await this.calls.forLead(principal, params.id)
    // The sale as GET /v1/leads/{id}/sale answers each: the operator every attempt and the
    // auction, a buyer its own attempts and bid, a publisher its status and payout alone.
    const sale = await this.saleOf(principal, params.id)
    return inertia.render('leads/show', {
      audience: audienceOf(principal),
      lead: LeadTransformer.transform(story.lead),
      buyer: story.buyer && BuyerTransformer.transform(story.buyer).useVariant('toReference'),
      evidence: ConsentEvidenceTransformer.transform(story.evidence),
      trail: TrailEventTransformer.transform(story.trail, story.actorNames).useVariant(
        'withActorName'
      ),
      deliveries: WebhookDeliveryTransformer.transform(
        story.deliveries,
        story.endpointUrls
      ).useVariant('withEndpointUrl'),
      calls: CallTransformer.transform(calls),
      sale:
        sale && audienceOf(principal) !== 'publisher' ? SaleViewTransformer.transform(sale) : null,
      publisher_sale:
        sale && audienceOf(principal) === 'publisher'
          ? SaleViewTransformer.transform(sale).useVariant('toPublisher')
          : null,
      may_review: await bouncer.with('LeadPolicy').allows('review'),
      // The same check as GET /v1/audit-logs/verify?lead_id=, run only when asked for.
      verification: inertia.optional(async () => {
        await this.leads.visiblePublisherId(principal, params.id)
        return VerificationTransformer.transform(await this.audit.verify(params.id))
      }),
    })
  }

  private async saleOf(principal: Principal, leadId: string) {
    const view = await this.sales.forLead(principal, leadId)
    const parts = 'attempts' in view ? view : { attempts: [], sales: [] }
    const auction =
      'auction' in view && view.auction && 'bids' in view.auction ? view.auction : null
    const buyerIds = new Set([
      ...parts.attempts.map((attempt) => attempt.buyer_id),
      ...parts.sales.map((sale) => sale.buyer_id),
      ...(auction?.bids ?? []).map((bid) => bid.buyer_id),
    ])
    const destinationIds = new Set(
      parts.attempts.flatMap((attempt) => (attempt.destination_id ? [attempt.destination_id] : []))
    )
    const [buyers, destinations] = await Promise.all([
      buyerIds.size
        ? Buyer.query()
            .whereIn('id', [...buyerIds])
            .select('id', 'name')
        : [],
      destinationIds.size
        ? Destination.query()
            .whereIn('id', [...destinationIds])
            .select('id', 'name')
        : [],
    ])
    return {
      view,
      buyers: new Map(buyers.map((buyer) => [buyer.id, buyer.name])),
      destinations: new Map(destinations.map((row) => [row.id, row.name])),
    }
  }

  /**
   * The proof bundle GET /v1/audit-logs/proof?lead_id= gives, as a file. Until
   * the sealer has signed the lead's newest entries there is none yet: the
   * page says when to try again instead.
   */
  async proof({ params, request, response, session, principal: person, bouncer }: HttpContext) {
    await bouncer.with('AuditLogPolicy').authorize('view')
    const principal = inChosenEnvironment(person, request.qs().environment)
    await this.leads.visiblePublisherId(principal, params.id)
    let bundle
    try {
      bundle = await this.proofs.bundle(params.id)
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.code !== 'not_sealed') throw error
      session.flash('notice', { severity: 'warn', summary: error.message })
      return response
        .redirect()
        .toPath(
          `/${audienceOf(principal)}/leads/${params.id}${principal.environment === 'sandbox' ? '?environment=sandbox' : ''}`
        )
    }
    response.header('Cache-Control', 'no-store')
    response.header('Content-Type', 'application/json; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="lead-${params.id}-proof.json"`)
    return response.send(JSON.stringify(bundle, null, 2))
  }
}

/** A person in a portal sees its sandbox too, when it asks for it (a sandbox test lead, say). */
function inChosenEnvironment(principal: Principal, environment: unknown) {
  return environment === 'sandbox' ? principal.in('sandbox') : principal
}
