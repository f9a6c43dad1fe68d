import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import RoutingRuleService from '#services/routing/routing_rule_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import {
  createRoutingRuleValidator,
  listRoutingRulesValidator,
  updateRoutingRuleValidator,
} from '#validators/routing_rule'
import { routingRuleToJson } from '#transformers/routing_rule_transformer'

/** A buyer reads its own rules without the publisher side of them. */
const readerOf = (principal: Principal) => ({ buyer: principal.kind === 'buyer' })

@inject()
export default class RoutingRulesController {
  constructor(protected rules: RoutingRuleService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('create')
    const input = await request.validateUsing(createRoutingRuleValidator)
    const rule = await this.rules.create(principal, input)
    return response.created(routingRuleToJson(rule, await this.rules.labelSlugsFor([rule])))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('viewList')
    const page = await this.rules.list(
      principal,
      await request.validateUsing(listRoutingRulesValidator)
    )
    const slugs = await this.rules.labelSlugsFor(page.data)
    return pageToJson(page, (rule) => routingRuleToJson(rule, slugs, readerOf(principal)))
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('view')
    return routingRuleToJson(rule, await this.rules.labelSlugsFor([rule]), readerOf(principal))
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const patch = await request.validateUsing(updateRoutingRuleValidator)
    await this.rules.update(principal, rule, patch)
    return routingRuleToJson(rule, await this.rules.labelSlugsFor([rule]), readerOf(principal))
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('delete')
    await this.rules.delete(principal, rule)
    return response.noContent()
  }
}
