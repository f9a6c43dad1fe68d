import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import Destination from '#models/destination'
import RoutingRule, { type Caps, type SaleMode, type WeeklySchedule } from '#models/routing_rule'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { transaction } from '#services/sql/transaction'
import type { AudienceCriterion } from '#services/quality/quality_rules'

export type RoutingRuleInput = {
  buyer_id: string
  labels?: string[]
  publishers?: string[]
  criteria?: AudienceCriterion[]
  buyer_criteria?: AudienceCriterion[]
  destination_id?: string | null
  mode?: SaleMode
  exclusive?: boolean
  reserve_cents?: number | null
  payout_share_percent?: number | null
  status?: 'active' | 'paused'
  price_cents: number
  payout_cents: number
  currency: string
  caps?: Caps
  schedule?: WeeklySchedule | null
  priority?: number
  weight?: number
  enabled?: boolean
  return_window_hours?: number | null
  environment?: Environment
}

export type RoutingRulePatch = Partial<RoutingRuleInput>

/** What a buyer may change of its own rules (API.md, "Selling"); the rest is the operator's. */
const BUYER_FIELDS = new Set(['buyer_criteria', 'caps', 'schedule', 'status'])

/**
 * Storage of routing rules: which buyer takes which leads at what price.
 * The rule keeps label ids; callers speak label slugs, translated here.
 */
@inject()
export default class RoutingRuleService {
  constructor(protected accessLog: AccessLogService) {}

  async create(principal: Principal, input: RoutingRuleInput) {
    const labelIds = await this.resolveReferences(input, input, [], {
      buyerId: input.buyer_id,
      mode: input.mode ?? 'fixed',
    })
    return transaction(async (trx) => {
      const rule = await RoutingRule.create(
        {
          buyerId: input.buyer_id,
          labelIds: labelIds ?? [],
          publisherIds: input.publishers ?? [],
          criteria: input.criteria ?? [],
          buyerCriteria: input.buyer_criteria ?? [],
          destinationId: input.destination_id ?? null,
          mode: input.mode ?? 'fixed',
          exclusive: input.exclusive ?? true,
          reserveCents: input.reserve_cents ?? null,
          payoutSharePercent: input.payout_share_percent ?? null,
          priceCents: input.price_cents,
          payoutCents: input.payout_cents,
          currency: input.currency,
          caps: input.caps ?? {},
          schedule: input.schedule ?? null,
          priority: input.priority ?? 0,
          weight: input.weight ?? 1,
          enabled: input.status !== undefined ? input.status === 'active' : (input.enabled ?? true),
          returnWindowHours: input.return_window_hours ?? null,
          environment: input.environment ?? 'live',
        },
        { client: trx }
      )
      await this.log(principal, 'routing_rule.created', rule, trx)
      return rule
    })
  }

  async update(principal: Principal, rule: RoutingRule, patch: RoutingRulePatch) {
    const fields = Object.keys(patch)
    if (fields.length === 0) return rule
    if (!principal.isOperator) {
      const refused = fields.filter((field) => !BUYER_FIELDS.has(field))
      if (refused.length > 0) {
        throw ApiProblem.forbidden(
          'operator_only',
          `A buyer changes only its filters, caps, schedule and status; ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} the operator's.`,
          { field: refused[0] }
        )
      }
    }
    const errors: FieldError[] = []
    // A rule sells one environment's leads for good: its cap counters, its sales and the return
    // windows they run under are that environment's, and moving it would carry them across.
    if (patch.environment !== undefined && patch.environment !== rule.environment) {
      errors.push({
        field: 'environment',
        code: 'environment_fixed',
        message: `This rule sells ${rule.environment} leads and always will; create another rule for ${patch.environment} leads.`,
      })
    }
    const merged = {
      price_cents: patch.price_cents ?? rule.priceCents,
      payout_cents: patch.payout_cents ?? rule.payoutCents,
    }
    const labelIds = await this.resolveReferences(patch, merged, errors, {
      buyerId: patch.buyer_id ?? rule.buyerId,
      mode: patch.mode ?? rule.mode,
      // A rule moved to another buyer cannot keep the old buyer's destination.
      destinationId:
        patch.destination_id === undefined && patch.buyer_id !== undefined
          ? rule.destinationId
          : undefined,
    })
    await transaction(async (trx) => {
      rule.useTransaction(trx)
      rule.merge({
        ...(patch.buyer_id !== undefined ? { buyerId: patch.buyer_id } : {}),
        ...(labelIds !== undefined ? { labelIds } : {}),
        ...(patch.publishers !== undefined ? { publisherIds: patch.publishers } : {}),
        ...(patch.criteria !== undefined ? { criteria: patch.criteria } : {}),
        ...(patch.buyer_criteria !== undefined ? { buyerCriteria: patch.buyer_criteria } : {}),
        ...(patch.destination_id !== undefined ? { destinationId: patch.destination_id } : {}),
        ...(patch.mode !== undefined ? { mode: patch.mode } : {}),
        ...(patch.exclusive !== undefined ? { exclusive: patch.exclusive } : {}),
        ...(patch.reserve_cents !== undefined ? { reserveCents: patch.reserve_cents } : {}),
        ...(patch.payout_share_percent !== undefined
          ? { payoutSharePercent: patch.payout_share_percent }
          : {}),
        ...(patch.status !== undefined ? { enabled: patch.status === 'active' } : {}),
        ...(patch.price_cents !== undefined ? { priceCents: patch.price_cents } : {}),
        ...(patch.payout_cents !== undefined ? { payoutCents: patch.payout_cents } : {}),
        ...(patch.currency !== undefined ? { currency: patch.currency } : {}),
        ...(patch.caps !== undefined ? { caps: patch.caps } : {}),
        ...(patch.schedule !== undefined ? { schedule: patch.schedule } : {}),
        ...(patch.priority !== undefined ? { priority: patch.priority } : {}),
        ...(patch.weight !== undefined ? { weight: patch.weight } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.return_window_hours !== undefined
          ? { returnWindowHours: patch.return_window_hours }
          : {}),
      })
      await rule.save()
      await this.log(principal, 'routing_rule.updated', rule, trx, { fields })
    })
    return rule
  }

  async delete(principal: Principal, rule: RoutingRule) {
    await transaction(async (trx) => {
      rule.useTransaction(trx)
      await rule.delete()
      await this.log(principal, 'routing_rule.deleted', rule, trx)
    })
  }

  /**
   * Routing rules are the operator's margins: a buyer sees only its own rules, of its
   * credential's environment (and without payouts: the transformer), nobody else any.
   */
  visibleTo(principal: Principal) {
    const query = RoutingRule.query()
    if (principal.isOperator) return query
    if (principal.kind === 'buyer' && principal.buyerId) {
      return query.where('buyer_id', principal.buyerId).where('environment', principal.environment)
    }
    return query.whereRaw('false')
  }

  list(
    principal: Principal,
    filters: PageRequest & { buyer_id?: string; environment?: Environment }
  ) {
    const query = this.visibleTo(principal)
    if (filters.buyer_id) query.where('buyer_id', filters.buyer_id)
    if (filters.environment) query.where('environment', filters.environment)
    return paginate(query, filters)
  }

  async findVisible(principal: Principal, id: string) {
    const rule = await this.visibleTo(principal).where('id', id).first()
    if (!rule) throw ApiProblem.notFound('routing rule')
    return rule
  }

  /** Label id → slug for every label the given rules name, in one query. */
  async labelSlugsFor(rules: RoutingRule[]) {
    const ids = [...new Set(rules.flatMap((rule) => rule.labelIds))]
    const labels = ids.length > 0 ? await Label.query().whereIn('id', ids).select('id', 'slug') : []
    return new Map(labels.map((label) => [label.id, label.slug]))
  }

  /**
   * Checks that the buyer, labels and publishers named exist and that the
   * payout leaves a margin; reports every problem at once, with the caller's
   * own (`errors`). Returns the label ids when labels were given.
   */
  protected async resolveReferences(
    input: RoutingRulePatch,
    money: { price_cents: number; payout_cents: number },
    errors: FieldError[] = [],
    sale: { buyerId: string; mode: SaleMode; destinationId?: string | null } = {
      buyerId: input.buyer_id ?? '',
      mode: input.mode ?? 'fixed',
    }
  ) {
    if (input.buyer_id !== undefined && !(await Buyer.find(input.buyer_id))) {
      errors.push({ field: 'buyer_id', code: 'exists', message: 'No buyer has this id.' })
    }

    let labelIds: string[] | undefined
    if (input.labels !== undefined) {
      const found =
        input.labels.length > 0
          ? await Label.query().whereIn('slug', input.labels).select('id', 'slug')
          : []
      const idOf = new Map(found.map((label) => [label.slug, label.id]))
      input.labels.forEach((slug, index) => {
        if (!idOf.has(slug))
          errors.push({
            field: `labels.${index}`,
            code: 'exists',
            message: `No label with slug "${slug}".`,
          })
      })
      labelIds = input.labels.flatMap((slug) => idOf.get(slug) ?? [])
    }

    if (input.publishers !== undefined && input.publishers.length > 0) {
      const existing = await Publisher.query().whereIn('id', input.publishers).select('id')
      const found = new Set(existing.map((publisher) => publisher.id))
      input.publishers.forEach((id, index) => {
        if (!found.has(id))
          errors.push({
            field: `publishers.${index}`,
            code: 'exists',
            message: 'No publisher has this id.',
          })
      })
    }

    const destinationId = input.destination_id ?? sale.destinationId
    if (destinationId) {
      const destination = await Destination.find(destinationId)
      if (!destination || destination.buyerId !== sale.buyerId) {
        errors.push({
          field: 'destination_id',
          code: 'exists',
          message: "No destination of this rule's buyer has this id.",
        })
      } else if (
        sale.mode === 'ping_post' &&
        !(destination.kind === 'http' && destination.config.http?.ping)
      ) {
        errors.push({
          field: 'mode',
          code: 'ping_destination_required',
          message: 'A ping-post rule sells to an http destination with a ping section.',
        })
      }
    } else if (sale.mode === 'ping_post' && input.mode !== undefined) {
      errors.push({
        field: 'destination_id',
        code: 'required',
        message: 'A ping-post rule needs an http destination with a ping section.',
      })
    }

    if (money.payout_cents > money.price_cents) {
      errors.push({
        field: 'payout_cents',
        code: 'payout_exceeds_price',
        message: `The payout (${money.payout_cents}) cannot exceed the price (${money.price_cents}).`,
      })
    }

    if (errors.length > 0) throw ApiProblem.unprocessable(errors)
    return labelIds
  }

  protected log(
    principal: Principal,
    action: string,
    rule: RoutingRule,
    trx: TransactionClientContract,
    details: Record<string, unknown> = {}
  ) {
    return this.accessLog.record(
      principal.actor,
      action,
      { type: 'routing_rule', id: rule.id, buyerId: rule.buyerId },
      { details, trx }
    )
  }
}
