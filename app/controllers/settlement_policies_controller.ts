import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import SettlementPolicyService from '#services/money/settlement_policy_service'
import { settlementPolicyValidator } from '#validators/settlement'
import SettlementPolicyTransformer from '#transformers/settlement_policy_transformer'

@inject()
export default class SettlementPoliciesController {
  constructor(
    protected labels: LabelService,
    protected policies: SettlementPolicyService
  ) {}

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('SettlementPolicy').authorize('viewRules')
    return serialize(SettlementPolicyTransformer.transform(await this.policies.show(label)))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('SettlementPolicy').authorize('changeRules')
    const policy = await request.validateUsing(settlementPolicyValidator)
    const replaced = await this.policies.replace(principal, label, policy)
    return serialize(SettlementPolicyTransformer.transform(replaced))
  }
}
