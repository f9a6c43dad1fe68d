import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import RoutingRuleService from '#services/routing/routing_rule_service'
import { ruleChoices } from '#services/routing/rule_references'
import {
  createRoutingRuleValidator,
  listRoutingRulesValidator,
  updateRoutingRuleValidator,
} from '#validators/routing_rule'
import RoutingRuleTransformer from '#transformers/routing_rule_transformer'
import { routingRuleRows } from '#controllers/concerns/routing_rule_rows'
import { RULE_VOCABULARY as VOCABULARY } from '#controllers/concerns/rule_vocabulary'

/** The operator's routing rules: the same validators and RoutingRuleService as /v1/routing-rules. */
@inject()
export default class RoutingRulesController {
  constructor(protected rules: RoutingRuleService) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('viewList')
    const filters = await request.validateUsing(listRoutingRulesValidator)
    const [page, choices] = await Promise.all([
      this.rules.list(principal, filters),
      ruleChoices(principal),
    ])
    return inertia.render('operator/routing_rules/index', {
      ...(await routingRuleRows(this.rules, page)),
      buyers: choices.buyers,
    })
  }

  async create({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('create')
    const choices = await ruleChoices(principal)
    // A rule started from a buyer's page comes with that buyer chosen, if it is one.
    const wanted = request.qs().buyer_id
    const buyerId = choices.buyers.some((buyer) => buyer.value === wanted) ? wanted : null
    return inertia.render('operator/routing_rules/form', {
      rule: null,
      buyer_id: buyerId as string | null,
      choices,
      vocabulary: VOCABULARY,
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('create')
    const input = await request.validateUsing(createRoutingRuleValidator)
    const rule = await this.rules.create(principal, input)
    session.flash('notice', { severity: 'success', summary: 'Routing rule created' })
    return response.redirect().toPath(`/operator/routing-rules?buyer_id=${rule.buyerId}`)
  }

  async edit({ params, inertia, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    return inertia.render('operator/routing_rules/form', {
      rule: RoutingRuleTransformer.transform(rule, await this.rules.labelSlugsFor([rule])),
      buyer_id: rule.buyerId as string | null,
      choices: await ruleChoices(principal),
      vocabulary: VOCABULARY,
    })
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const patch = await request.validateUsing(updateRoutingRuleValidator)
    await this.rules.update(principal, rule, patch)
    session.flash('notice', { severity: 'success', summary: 'Routing rule saved' })
    return response.redirect().toPath(`/operator/routing-rules?buyer_id=${rule.buyerId}`)
  }

  async destroy({ params, response, session, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('delete')
    await this.rules.delete(principal, rule)
    session.flash('notice', { severity: 'success', summary: 'Routing rule deleted' })
    return response.redirect().back()
  }
}
