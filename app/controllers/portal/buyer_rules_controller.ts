import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Destination from '#models/destination'
import RoutingRuleService from '#services/routing/routing_rule_service'
import { capUsage } from '#services/routing/caps'
import RoutingRuleTransformer from '#transformers/routing_rule_transformer'
import { pageValidator } from '#validators/pagination'
import { updateRoutingRuleValidator } from '#validators/routing_rule'
import { RULE_VOCABULARY } from '#controllers/concerns/rule_vocabulary'

/**
 * `/buyer/rules`: a buyer's own routing rules as PATCH /v1/routing-rules lets it see and change
 * them (docs/selling.md, "Buyers help themselves"): the same validator, policy and
 * RoutingRuleService, which refuses any field but its filters, caps, schedule and status.
 */
@inject()
export default class BuyerRulesController {
  constructor(protected rules: RoutingRuleService) {}

  async index({ inertia, request, principal, bouncer }: HttpContext) {
    const policy = bouncer.with('RoutingRulePolicy')
    await policy.authorize('viewList')
    const [invalid, page] = await pageValidator.tryValidate(request.qs())
    const rules = await this.rules.list(principal, invalid ? {} : page)
    const [slugs, usage, destinations] = await Promise.all([
      this.rules.labelSlugsFor(rules.data),
      capUsage(rules.data),
      this.destinationNames(principal.buyerId),
    ])
    return inertia.render('buyer/rules/index', {
      rules: RoutingRuleTransformer.transform(rules.data, slugs, usage).useVariant(
        'forBuyerWithUsage'
      ),
      next_cursor: rules.nextCursor,
      destinations,
      can_manage: await policy.allows('update'),
    })
  }

  async edit({ inertia, params, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const [slugs, usage] = await Promise.all([this.rules.labelSlugsFor([rule]), capUsage([rule])])
    return inertia.render('buyer/rules/edit', {
      rule: RoutingRuleTransformer.transform(rule, slugs, usage).useVariant('forBuyerWithUsage'),
      vocabulary: RULE_VOCABULARY,
    })
  }

  /** Saves what a buyer may change; a pause or resume comes back to the list, an edit too. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const patch = await request.validateUsing(updateRoutingRuleValidator)
    await this.rules.update(principal, rule, patch)
    const onlyStatus = Object.keys(patch).length === 1 && patch.status
    session.flash('notice', {
      severity: 'success',
      summary: onlyStatus
        ? patch.status === 'paused'
          ? 'Rule paused: it takes no leads until you resume it'
          : 'Rule resumed: it takes leads again'
        : 'Rule saved',
    })
    return response.redirect().toRoute('buyer.rules.index')
  }

  /** Destination id → name, so a rule says where its leads go. */
  private async destinationNames(buyerId: string | null) {
    if (!buyerId) return {}
    const rows = await Destination.query().where('buyer_id', buyerId).select('id', 'name', 'kind')
    return Object.fromEntries(rows.map((row) => [row.id, { name: row.name, kind: row.kind }]))
  }
}
