import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import RoutingRuleService from '#services/routing/routing_rule_service'
import {
  createRoutingRuleValidator,
  listRoutingRulesValidator,
  updateRoutingRuleValidator,
} from '#validators/routing_rule'
import RoutingRuleTransformer from '#transformers/routing_rule_transformer'

@inject()
export default class RoutingRulesController {
  constructor(protected rules: RoutingRuleService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('create')
    const input = await request.validateUsing(createRoutingRuleValidator)
    const rule = await this.rules.create(principal, input)
    const slugs = await this.rules.labelSlugsFor([rule])
    return response.created(await serialize(RoutingRuleTransformer.transform(rule, slugs)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('RoutingRulePolicy').authorize('viewList')
    const page = await this.rules.list(
      principal,
      await request.validateUsing(listRoutingRulesValidator)
    )
    const slugs = await this.rules.labelSlugsFor(page.data)
    const rules = RoutingRuleTransformer.transform(page.data, slugs)
    // A buyer reads its own rules without the publisher side of them.
    return principal.kind === 'buyer'
      ? serializePage(rules.useVariant('forBuyer'), page.nextCursor)
      : serializePage(rules, page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('view')
    const shown = RoutingRuleTransformer.transform(rule, await this.rules.labelSlugsFor([rule]))
    return principal.kind === 'buyer' ? serialize(shown.useVariant('forBuyer')) : serialize(shown)
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const patch = await request.validateUsing(updateRoutingRuleValidator)
    await this.rules.update(principal, rule, patch)
    const shown = RoutingRuleTransformer.transform(rule, await this.rules.labelSlugsFor([rule]))
    return principal.kind === 'buyer' ? serialize(shown.useVariant('forBuyer')) : serialize(shown)
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('delete')
    await this.rules.delete(principal, rule)
    return response.noContent()
  }
}
