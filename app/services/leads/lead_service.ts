import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import Label from '#models/label'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import TenancyService from '#services/platform/tenancy_service'
import type { Channel } from '#services/intake/delivery_methods'
import { paginate, type PageRequest } from '#services/sql/cursor_pagination'
import { complianceConditions } from '#services/access/compliance_scope'
import {
  leadToJson,
  type LeadAudience,
  type LeadRow,
  type RoutingFacts,
} from '#services/leads/lead_presenter'

export type LeadFilters = PageRequest & {
  status?: string
  publisher?: string
  label?: string
  environment?: 'live' | 'sandbox'
  from?: Date
  to?: Date
  /** true: accepted live leads nobody bought yet; false: leads sold to a buyer. */
  unsold?: boolean
  /** Operator only: leads sold to this buyer. */
  buyer_id?: string
  /** Leads given this reason (a quality rule's code, or the reviewer's rejection). */
  reason?: string
  channel?: Channel
}

/**
 * A portal user of a publisher or buyer that was never linked to one sees
 * nothing: a null id would read as "IS NULL" (every unsold lead).
 */
const NOBODY = '00000000-0000-0000-0000-000000000000'

type FactRow = { id: string; publisher_id: string } & Partial<RoutingFacts>

/** The `lead_facts` columns that say what routing decided. */
const ROUTING_COLUMNS = [
  'buyer_id',
  'routing_rule_id',
  'price_cents',
  'payout_cents',
  'currency',
  'unsold_reason',
  'matched_at',
  'routed_at',
]

/**
 * Operator and compliance see the whole routing decision; publishers and buyers their own side
 * of it; a label manager what the label's publishers see.
 */
export function audienceOf(principal: Principal): LeadAudience {
  if (principal.kind === 'label_manager') return 'publisher'
  return principal.kind === 'publisher' || principal.kind === 'buyer' ? principal.kind : 'operator'
}

/**
 * A filter on what the caller may not see would answer yes or no about it:
 * which buyer took a publisher's leads is the operator's business, which
 * publisher a lead came from is not the buyer's, and a sandbox credential
 * asks about sandbox leads only.
 */
export function assertFiltersAllowed(
  principal: Principal,
  filters: { publisher?: string; buyer?: string; buyer_id?: string; environment?: string }
) {
  const refuse = (detail: string) => {
    throw ApiProblem.forbidden('filter_not_allowed', detail)
  }
  if ((filters.buyer ?? filters.buyer_id) && audienceOf(principal) !== 'operator') {
    refuse('Only the operator filters by buyer.')
  }
  if (filters.publisher && principal.kind === 'buyer') {
    refuse(
      'A buyer does not filter by publisher: which publisher a lead came from is not shown to buyers.'
    )
  }
  if (principal.environment === 'sandbox' && filters.environment === 'live') {
    refuse('A sandbox credential reads sandbox data only; use a live key for live leads.')
  }
}

/**
 * The environment is a wall, for leads and for the money made of them: a party (publisher,
 * buyer, label manager) sees its credential's environment only; the operator and a compliance
 * officer see any, unless their credential is a sandbox one.
 */
export function environmentWall<Query extends { where(column: string, value: string): unknown }>(
  query: Query,
  principal: Principal,
  column = 'environment'
) {
  if (['publisher', 'buyer', 'label_manager'].includes(principal.kind)) {
    query.where(column, principal.environment)
  } else if (principal.environment === 'sandbox') {
    query.where(column, 'sandbox')
  }
  return query
}

/**
 * Reads leads for whoever asks: a publisher its own, a buyer those delivered
 * to it, the operator all. `lead_facts` answers who may see what; the lead
 * itself is read from its publisher's schema.
 */
@inject()
export default class LeadService {
  constructor(protected tenancy: TenancyService) {}

  /**
   * The facts of the leads this principal may see. The environment is a
   * wall: a sandbox credential sees sandbox leads only, whoever it acts for.
   */
  visibleFacts(principal: Principal) {
    const columns =
      principal.kind === 'buyer'
        ? ROUTING_COLUMNS.filter((c) => c !== 'price_cents')
        : ROUTING_COLUMNS
    const query = db.from('lead_facts').select('lead_id as id', 'publisher_id', ...columns)
    if (principal.kind === 'publisher') {
      query.where('publisher_id', principal.publisherId ?? NOBODY)
    } else if (principal.kind === 'buyer') {
      // A buyer sees what it bought: a shared lead has a sale for each of its buyers, and each
      // buyer reads its own sale's price (the facts sum every buyer's).
      const buyerId = principal.buyerId ?? NOBODY
      query.whereIn('lead_id', db.from('sales').select('lead_id').where('buyer_id', buyerId))
      query.select(
        db.raw(
          `(SELECT s.price_cents FROM sales s
             WHERE s.lead_id = lead_facts.lead_id AND s.buyer_id = ?) AS price_cents`,
          [buyerId]
        )
      )
    } else if (principal.kind === 'label_manager') {
      query.where('label_id', principal.labelId ?? NOBODY)
    }
    environmentWall(query, principal)
    // A scoped auditor: the leads of its publishers and labels that arrived in its period.
    for (const { sql, values } of complianceConditions(principal.scope, {
      publisherId: 'lead_facts.publisher_id',
      at: 'lead_facts.created_at',
    })) {
      query.whereRaw(sql, values as never[])
    }
    return query
  }

  /** Whose the lead is, when this principal may see it; 404 otherwise. */
  async visiblePublisherId(principal: Principal, id: string): Promise<string> {
    const fact: FactRow | null = await this.visibleFacts(principal).where('lead_id', id).first()
    if (!fact) throw ApiProblem.notFound('lead')
    return fact.publisher_id
  }

  async findVisible(principal: Principal, id: string) {
    const fact: FactRow | null = await this.visibleFacts(principal).where('lead_id', id).first()
    if (!fact) throw ApiProblem.notFound('lead')
    const [lead] = await this.load([fact], audienceOf(principal))
    if (!lead) throw ApiProblem.notFound('lead')
    return lead
  }

  async list(principal: Principal, filters: LeadFilters) {
    assertFiltersAllowed(principal, filters)
    const query = this.visibleFacts(principal)
    if (principal.isOperator || principal.kind === 'compliance') {
      query.where('environment', filters.environment ?? principal.environment)
    }
    if (filters.status) query.where('status', filters.status)
    if (filters.from) query.where('created_at', '>=', filters.from)
    if (filters.to) query.where('created_at', '<', filters.to)
    if (filters.publisher) {
      query.whereIn(
        'publisher_id',
        db.from('publishers').select('id').where('slug', filters.publisher)
      )
    }
    if (filters.label) {
      query.whereIn('label_id', db.from('labels').select('id').where('slug', filters.label))
    }
    if (filters.unsold === true) query.where('status', 'accepted').whereNull('buyer_id')
    if (filters.unsold === false) query.whereNotNull('buyer_id')
    if (filters.buyer_id) {
      query.whereIn(
        'lead_id',
        db.from('sales').select('lead_id').where('buyer_id', filters.buyer_id)
      )
    }
    if (filters.reason) query.whereRaw('? = ANY(reason_codes)', [filters.reason])
    if (filters.channel) query.where('channel', filters.channel)
    const page = await paginate<FactRow>(query, filters, 'lead_id')
    return { data: await this.load(page.data, audienceOf(principal)), next_cursor: page.nextCursor }
  }

  /** One query per publisher schema on the page, then back in the facts' order. */
  async load(facts: FactRow[], audience?: LeadAudience) {
    const byPublisher = new Map<string, string[]>()
    for (const fact of facts) {
      byPublisher.set(fact.publisher_id, [...(byPublisher.get(fact.publisher_id) ?? []), fact.id])
    }
    const publishers = await Publisher.query().whereIn('id', [...byPublisher.keys()])
    const labelRows = await Label.query().whereIn(
      'id',
      publishers.map((p) => p.labelId).filter((id): id is string => !!id)
    )
    const labels = new Map(labelRows.map((label) => [label.id, label.slug]))
    const routing = new Map(facts.map((fact) => [fact.id, fact]))
    const found = new Map<string, ReturnType<typeof leadToJson>>()
    for (const publisher of publishers) {
      const rows: LeadRow[] = await this.tenancy.run(publisher, (trx) =>
        trx.from('leads').whereIn('id', byPublisher.get(publisher.id)!).select('*')
      )
      for (const row of rows) {
        found.set(
          row.id,
          leadToJson(row, {
            publisherSlug: publisher.slug,
            labelSlug: publisher.labelId ? (labels.get(publisher.labelId) ?? null) : null,
            audience,
            routing: routingFacts(routing.get(row.id)),
          })
        )
      }
    }
    return facts.map((fact) => found.get(fact.id)).filter((lead) => lead !== undefined)
  }
}

/** The routing columns of a facts row, when the row was read with them. */
function routingFacts(fact: FactRow | undefined): RoutingFacts | undefined {
  if (!fact || !('buyer_id' in fact)) return undefined
  return {
    buyer_id: fact.buyer_id ?? null,
    routing_rule_id: fact.routing_rule_id ?? null,
    price_cents: fact.price_cents ?? null,
    payout_cents: fact.payout_cents ?? null,
    currency: fact.currency ?? null,
    unsold_reason: fact.unsold_reason ?? null,
    matched_at: fact.matched_at ?? null,
    routed_at: fact.routed_at ?? null,
  }
}
