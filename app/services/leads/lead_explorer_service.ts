import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import User from '#models/user'
import type Principal from '#auth/principal'
import AuditChainService from '#services/audit/audit_chain_service'
import ConsentEvidenceService from '#services/audit/consent_evidence_service'
import LeadService from '#services/leads/lead_service'
import WebhookDeliveryService from '#services/webhooks/delivery_service'
import WebhookEndpointService from '#services/webhooks/endpoint_service'

/** The most deliveries a lead's page lists: a lead has a handful of events, each to a few endpoints. */
const DELIVERIES_SHOWN = 100

const USER_ACTOR = /^(operator|publisher|buyer):([0-9a-f-]{36})$/i

/**
 * What the portals show around a lead: the choices its list filters offer,
 * and its whole story for one reader (the lead as the API shows that reader,
 * the consent evidence, the audit trail, and the webhook deliveries about it
 * to the reader's own endpoints). Every part is scoped by the principal as
 * the API scopes it.
 */
@inject()
export default class LeadExplorerService {
  constructor(
    protected leads: LeadService,
    protected audit: AuditChainService,
    protected evidence: ConsentEvidenceService,
    protected deliveries: WebhookDeliveryService,
    protected endpoints: WebhookEndpointService
  ) {}

  /** Publishers, labels and buyers to filter by: the operator's alone (the others' filters refuse them). */
  async filterChoices(principal: Principal) {
    if (!principal.isOperator) return { publishers: [], labels: [], buyers: [] }
    const [publishers, labels, buyers] = await Promise.all([
      Publisher.query().select('slug', 'name').orderBy('name'),
      Label.query().select('slug', 'name').orderBy('name'),
      Buyer.query().select('id', 'name').orderBy('name'),
    ])
    return {
      publishers: publishers.map(({ slug, name }) => ({ value: slug, label: name })),
      labels: labels.map(({ slug, name }) => ({ value: slug, label: name })),
      buyers: buyers.map(({ id, name }) => ({ value: id, label: name })),
    }
  }

  /** A lead's story; 404 when the principal may not see the lead. */
  async story(principal: Principal, leadId: string) {
    const publisherId = await this.leads.visiblePublisherId(principal, leadId)
    const [lead, evidence, trail, deliveries] = await Promise.all([
      this.leads.findVisible(principal, leadId),
      this.consentEvidence(publisherId, leadId),
      this.audit.entriesFor(publisherId, leadId),
      this.deliveries.list(principal, { lead_id: leadId, limit: DELIVERIES_SHOWN }),
    ])
    const endpointIds = [...new Set(deliveries.data.map((delivery) => delivery.endpointId))]
    const endpoints = endpointIds.length
      ? await this.endpoints.visibleTo(principal).whereIn('id', endpointIds)
      : []
    const buyerId = 'buyer_id' in lead ? lead.buyer_id : null
    return {
      lead,
      evidence,
      trail,
      deliveries: deliveries.data,
      endpointUrls: new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url])),
      // Only the operator's view of a lead names its buyer.
      buyer: buyerId ? await Buyer.query().select('id', 'name').where('id', buyerId).first() : null,
      actorNames: principal.isOperator ? await this.userActorNames(trail.map((e) => e.actor)) : {},
    }
  }

  /** The evidence with the wording it commits to; null for a lead that gave none. */
  private async consentEvidence(publisherId: string, leadId: string) {
    const evidence = await this.evidence.evidenceFor(publisherId, leadId)
    if (!evidence) return null
    const wording = await this.evidence.textFor(evidence.text_digest)
    return { ...evidence, text: wording?.text ?? null }
  }

  /**
   * The e-mail of each portal user in the trail's actors, for the operator to
   * read who decided; the trail itself keeps only the typed id.
   */
  private async userActorNames(actors: string[]) {
    const ids = new Map<string, string>()
    for (const actor of actors) {
      const match = USER_ACTOR.exec(actor)
      if (match) ids.set(match[2].toLowerCase(), actor)
    }
    if (ids.size === 0) return {}
    const users = await User.query()
      .select('id', 'email')
      .whereIn('id', [...ids.keys()])
    return Object.fromEntries(users.map((user) => [ids.get(user.id)!, user.email]))
  }
}
