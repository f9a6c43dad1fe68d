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
    return serializePage(RoutingRuleTransformer.transform(page.data, slugs), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('view')
    const slugs = await this.rules.labelSlugsFor([rule])
    return serialize(RoutingRuleTransformer.transform(rule, slugs))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('update')
    const patch = await request.validateUsing(updateRoutingRuleValidator)
    await this.rules.update(principal, rule, patch)
    const slugs = await this.rules.labelSlugsFor([rule])
    return serialize(RoutingRuleTransformer.transform(rule, slugs))
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const rule = await this.rules.findVisible(principal, params.id)
    await bouncer.with('RoutingRulePolicy').authorize('delete')
    await this.rules.delete(principal, rule)
    return response.noContent()
  }
}
